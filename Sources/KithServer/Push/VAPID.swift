import Crypto
import Foundation
import KithCore

/// The server's identity to push services (RFC 8292, VAPID): one P-256 key pair for the whole
/// installation (`VAPIDKeyStore`), whose public half every subscription names as its
/// `applicationServerKey`. A push service accepts messages for a subscription only with a token
/// signed by that key.
struct VAPIDKeyPair: Sendable {
    /// The private key's 32 bytes (CryptoKit's keys are not `Sendable`; this is made into one to sign).
    let privateKey: [UInt8]
    /// The uncompressed point (65 bytes), base64url without padding: `GET /v1/push/key` and `k=`.
    let publicKeyText: String

    /// Nil unless `privateKey` is a P-256 private key.
    init?(privateKey: [UInt8]) {
        guard let key = try? P256.Signing.PrivateKey(rawRepresentation: privateKey) else { return nil }
        self.privateKey = privateKey
        publicKeyText = WebPushBase64.encode(key.publicKey.x963Representation)
    }

    /// How long a token is valid. RFC 8292 allows at most 24 hours; 12 leaves room for a push
    /// service whose clock runs ahead of the server's.
    static let tokenLifetime: TimeInterval = 12 * 3600

    /// `Authorization: vapid t=<JWT>, k=<public key>` for a message to `endpoint`'s push service:
    /// an ES256 JWT whose `aud` is the endpoint's origin, `exp` 12 hours on, `sub` the contact.
    func authorization(for endpoint: URL, subject: String, now: Date) throws -> String {
        "vapid t=\(try token(audience: Self.origin(of: endpoint), subject: subject, now: now)), k=\(publicKeyText)"
    }

    func token(audience: String, subject: String, now: Date) throws -> String {
        let header = #"{"typ":"JWT","alg":"ES256"}"#
        let claims = VAPIDClaims(
            aud: audience, exp: Int64(now.timeIntervalSince1970 + Self.tokenLifetime), sub: subject)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let signingInput =
            WebPushBase64.encode(Array(header.utf8)) + "." + WebPushBase64.encode(try encoder.encode(claims))
        // JWS (RFC 7518 §3.4) wants r and s side by side, which is CryptoKit's raw form.
        let signature = try P256.Signing.PrivateKey(rawRepresentation: privateKey).signature(
            for: Data(signingInput.utf8))
        return signingInput + "." + WebPushBase64.encode(signature.rawRepresentation)
    }

    /// scheme://host[:port] of the endpoint, the audience a push service checks.
    static func origin(of endpoint: URL) -> String {
        let scheme = endpoint.scheme?.lowercased() ?? "https"
        var host = endpoint.host?.lowercased() ?? ""
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        let defaultPort = scheme == "https" ? 443 : 80
        guard let port = endpoint.port, port != defaultPort else { return "\(scheme)://\(host)" }
        return "\(scheme)://\(host):\(port)"
    }

    /// Who push services can reach about this server's messages: `mailto:` the address mail is
    /// sent from, unless that is still the placeholder (`kith@localhost`), then the public URL.
    static func subject(mailFrom: String, publicURL: String) -> String {
        if !mailFrom.isEmpty, mailFrom.contains("@"), !mailFrom.lowercased().hasSuffix("@localhost") {
            return "mailto:" + mailFrom
        }
        return publicURL
    }
}

struct VAPIDClaims: Codable, Equatable {
    let aud: String
    let exp: Int64
    let sub: String
}
