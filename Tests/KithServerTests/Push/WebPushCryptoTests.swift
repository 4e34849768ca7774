import Crypto
import Foundation
import KithCore
import Testing

@testable import KithServer

/// The message encryption (RFC 8291) against its own worked example, and the VAPID token (RFC
/// 8292) against the key that signed it.
@Suite("Web Push encryption and VAPID")
struct WebPushCryptoTests {
    static func bytes(_ text: String) throws -> [UInt8] { try #require(WebPushBase64.decode(text), "\(text)") }

    /// RFC 8291 Appendix A, byte for byte: the same server key and salt make the same message.
    @Test func encryptionReproducesRFC8291AppendixA() throws {
        let subscriber = try WebPushSubscriberKeys(
            p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
            auth: "BTBZMqHH6r4Tts7J_aSIgg")
        let server = try P256.KeyAgreement.PrivateKey(
            rawRepresentation: try Self.bytes("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"))
        #expect(
            WebPushBase64.encode(server.publicKey.x963Representation)
                == "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8")
        let message = try WebPushEncryption.encrypt(
            Array("When I grow up, I want to be a watermelon".utf8), to: subscriber, ephemeral: server,
            salt: try Self.bytes("DGv6ra1nlYgDCS1FRnbzlw"))
        #expect(
            WebPushBase64.encode(message)
                == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        )
    }

    @Test func aFreshKeyAndSaltEveryMessageAndNothingOverOneRecord() throws {
        let device = P256.KeyAgreement.PrivateKey()
        let subscriber = try WebPushSubscriberKeys(
            p256dh: WebPushBase64.encode(device.publicKey.x963Representation),
            auth: WebPushBase64.encode([UInt8](repeating: 7, count: 16)))
        let one = try WebPushEncryption.encrypt(Array("hello".utf8), to: subscriber)
        let two = try WebPushEncryption.encrypt(Array("hello".utf8), to: subscriber)
        #expect(one.count == 86 + 5 + 1 + 16)
        #expect(one.prefix(16) != two.prefix(16), "a salt per message")
        #expect(one[21..<86] != two[21..<86], "a server key per message")
        let largest = [UInt8](repeating: 0x61, count: WebPushEncryption.largestPlaintext)
        #expect(try WebPushEncryption.encrypt(largest, to: subscriber).count == 4096)
        #expect(throws: WebPushEncryptionError.self) { try WebPushEncryption.encrypt(largest + [0x61], to: subscriber) }
    }

    @Test func subscriberKeysAreCheckedOneByOne() {
        let good = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        func problem(_ p256dh: String, _ auth: String) -> WebPushSubscriberKeys.Problem? {
            do {
                _ = try WebPushSubscriberKeys(p256dh: p256dh, auth: auth)
                return nil
            } catch { return error }
        }
        #expect(problem(good, "BTBZMqHH6r4Tts7J_aSIgg") == nil)
        #expect(problem(good + "==", "BTBZMqHH6r4Tts7J_aSIgg==") == nil, "padding is tolerated")
        // The same x with y changed in its last byte is off the curve.
        var offCurve = WebPushBase64.decode(good)!
        offCurve[64] ^= 1
        for bad in [
            "not base64!", String(good.dropLast(2)), WebPushBase64.encode(offCurve),
            WebPushBase64.encode([2] + WebPushBase64.decode(good)![1...32]),
        ] {
            guard case .p256dh = problem(bad, "BTBZMqHH6r4Tts7J_aSIgg") else {
                Issue.record("\(bad) was not refused as keys.p256dh")
                continue
            }
        }
        for bad in ["", "BTBZMqHH6r4Tts7J_aSI", "BTBZMqHH6r4Tts7J_aSIgg" + "AA", "?"] {
            guard case .auth = problem(good, bad) else {
                Issue.record("\(bad) was not refused as keys.auth")
                continue
            }
        }
    }

    @Test func theVAPIDTokenIsSignedByTheKeyItNamesForTheEndpointsOrigin() throws {
        let key = P256.Signing.PrivateKey()
        let pair = try #require(VAPIDKeyPair(privateKey: [UInt8](key.rawRepresentation)))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let header = try pair.authorization(
            for: try #require(URL(string: "https://fcm.googleapis.com/fcm/send/abc:def")),
            subject: "mailto:ops@example.com",
            now: now)
        let parts = header.split(separator: " ", maxSplits: 1)
        #expect(parts.first == "vapid")
        let fields = Dictionary(
            uniqueKeysWithValues: try #require(parts.last).split(separator: ",").map {
                let pair = $0.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                return (String(pair[0]), String(pair[1]))
            })
        let publicKey = try #require(fields["k"])
        #expect(publicKey == WebPushBase64.encode(key.publicKey.x963Representation))
        #expect(publicKey.count == 87, "65 bytes, no padding")
        let token = try #require(fields["t"]).split(separator: ".").map(String.init)
        #expect(token.count == 3)
        let verifier = try P256.Signing.PublicKey(x963Representation: try Self.bytes(publicKey))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try Self.bytes(token[2]))
        #expect(verifier.isValidSignature(signature, for: Data("\(token[0]).\(token[1])".utf8)))
        let claims = try JSONDecoder().decode(VAPIDClaims.self, from: Data(try Self.bytes(token[1])))
        #expect(
            claims
                == VAPIDClaims(
                    aud: "https://fcm.googleapis.com", exp: 1_800_000_000 + 12 * 3600, sub: "mailto:ops@example.com"))
        let head = try JSONSerialization.jsonObject(with: Data(try Self.bytes(token[0]))) as? [String: String]
        #expect(head == ["typ": "JWT", "alg": "ES256"])
    }

    @Test func theAudienceIsTheEndpointsOriginAndTheSubjectAWayToReachTheOperator() throws {
        let origin = { (text: String) in VAPIDKeyPair.origin(of: URL(string: text)!) }
        #expect(
            origin("https://updates.push.services.mozilla.com/wpush/v2/gAAA")
                == "https://updates.push.services.mozilla.com")
        #expect(origin("https://Web.Push.Apple.com:443/QGx") == "https://web.push.apple.com")
        #expect(origin("http://127.0.0.1:8123/push/a") == "http://127.0.0.1:8123")
        #expect(origin("https://[2001:db8::1]:8443/x") == "https://[2001:db8::1]:8443")
        #expect(
            VAPIDKeyPair.subject(mailFrom: "ops@example.com", publicURL: "https://kith.example")
                == "mailto:ops@example.com")
        #expect(
            VAPIDKeyPair.subject(mailFrom: "kith@localhost", publicURL: "https://kith.example")
                == "https://kith.example")
    }
}
