import Crypto
import Foundation
import KithCore

/// A push message's body, encrypted for one device: RFC 8291 (Message Encryption for Web Push)
/// over RFC 8188's `aes128gcm` content coding. The server agrees a key with the device's P-256
/// key (`keys.p256dh`) from a fresh key pair of its own for every message, mixes in the device's
/// authentication secret (`keys.auth`), and seals the message in one record.
enum WebPushEncryption {
    /// The record size written in the header. One record holds the whole message.
    static let recordSize = 4096
    /// salt (16) + record size (4) + key id length (1) + the server's public key (65).
    static let headerLength = 86
    static let tagLength = 16
    /// A push service takes 4,096 bytes of body (RFC 8030 §7.2); the header, the tag and the
    /// padding delimiter leave this much for the message (RFC 8291 §4).
    static let largestPlaintext = 4096 - headerLength - tagLength - 1

    /// The encrypted body. `ephemeral` and `salt` are fresh for every message; tests pass RFC
    /// 8291's to reproduce its example.
    static func encrypt(
        _ plaintext: [UInt8], to subscriber: WebPushSubscriberKeys,
        ephemeral: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(),
        salt: [UInt8] = randomSalt()
    ) throws -> [UInt8] {
        guard plaintext.count <= largestPlaintext else { throw WebPushEncryptionError.tooLong(plaintext.count) }
        guard salt.count == 16 else { throw WebPushEncryptionError.badSalt }
        let shared = try ephemeral.sharedSecretFromKeyAgreement(
            with: P256.KeyAgreement.PublicKey(x963Representation: subscriber.point))
        let serverPublic = [UInt8](ephemeral.publicKey.x963Representation)
        let devicePublic = subscriber.point
        // IKM = HKDF(salt: auth secret, ikm: ECDH secret, info: "WebPush: info" 0x00 ua_public as_public).
        let keyInfo = Array("WebPush: info".utf8) + [0] + devicePublic + serverPublic
        let ikm = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: subscriber.auth, sharedInfo: keyInfo, outputByteCount: 32)
        let contentKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Array("Content-Encoding: aes128gcm".utf8) + [0],
            outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        // The last (and only) record ends with the delimiter 0x02 and no padding after it.
        let sealed = try AES.GCM.seal(
            plaintext + [2], using: contentKey, nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }))
        let size = UInt32(recordSize)
        let header =
            salt + [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + [UInt8(serverPublic.count)] + serverPublic
        return header + [UInt8](sealed.ciphertext) + [UInt8](sealed.tag)
    }

    static func randomSalt() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

enum WebPushEncryptionError: Error, CustomStringConvertible {
    case tooLong(Int)
    case badSalt

    var description: String {
        switch self {
        case .tooLong(let count):
            "a push message of \(count) bytes does not fit one record (at most \(WebPushEncryption.largestPlaintext))"
        case .badSalt: "the salt of a push message is 16 bytes"
        }
    }
}

/// A device's keys from its subscription (`keys.p256dh`, `keys.auth`), checked: a point on P-256
/// in its uncompressed form, and a 16-byte secret.
struct WebPushSubscriberKeys: Sendable {
    /// The uncompressed point (65 bytes), checked to be on the curve.
    let point: [UInt8]
    let auth: [UInt8]

    /// Why a key is refused, in words for the 422 that names its field.
    enum Problem: Error, Equatable {
        case p256dh(String)
        case auth(String)
    }

    init(p256dh: String, auth: String) throws(Problem) {
        guard let point = WebPushBase64.decode(p256dh) else {
            throw .p256dh("keys.p256dh must be base64url.")
        }
        guard point.count == 65, point.first == 4 else {
            throw .p256dh("keys.p256dh must be an uncompressed P-256 public key (65 bytes starting with 0x04).")
        }
        guard (try? P256.KeyAgreement.PublicKey(x963Representation: point)) != nil else {
            throw .p256dh("keys.p256dh is not a point on the P-256 curve.")
        }
        guard let secret = WebPushBase64.decode(auth), secret.count == 16 else {
            throw .auth("keys.auth must be 16 bytes, base64url.")
        }
        self.point = point
        self.auth = secret
    }
}

/// Base64url as browsers write a subscription's keys: without padding (Chrome, Firefox), though
/// some add it; stored and sent without.
enum WebPushBase64 {
    static func decode(_ text: String) -> [UInt8]? {
        var trimmed = Substring(text)
        while trimmed.hasSuffix("=") { trimmed = trimmed.dropLast() }
        return Base64URL.decode(trimmed)
    }

    static func encode(_ bytes: some Sequence<UInt8>) -> String { Base64URL.encode(Array(bytes)) }
}
