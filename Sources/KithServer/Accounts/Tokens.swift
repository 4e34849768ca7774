import Crypto
import KithCore
import Foundation

/// Opaque bearer secrets. A token is 256 random bits (a session's token: its session's id first),
/// base64url, behind a short prefix that tells a person (or a secret scanner) what it is. Only its
/// SHA-256 is ever stored.
enum TokenKind: String {
    case access = "kat"
    case refresh = "krt"
    case personal = "kpt"
    case web = "kws"
    case passwordReset = "kpr"
    /// Names a device that signed in to an account before (sign-in throttling lets it through).
    case device = "kdv"
}

enum Tokens {
    static func generate(_ kind: TokenKind) -> String {
        "\(kind.rawValue)_\(Base64URL.encode(randomBytes()))"
    }

    /// A session's token (access, refresh, web): the session's id, then 256 random bits, together in
    /// base64url behind the prefix (64 characters). The id is not secret; it lets the server find
    /// the session by its key and compare the whole token's hash, so no index of hashes has to
    /// change when a refresh rotates both tokens (decision 107). Tokens handed out before
    /// (`generate(_:)`'s layout) are found through `legacy_session_tokens`.
    static func generate(_ kind: TokenKind, session: UUID) -> String {
        let id = withUnsafeBytes(of: session.uuid) { Array($0) }
        return "\(kind.rawValue)_\(Base64URL.encode(id + randomBytes()))"
    }

    /// The session a token of `generate(_:session:)`'s layout names; nil for any other text.
    static func session(of token: String) -> UUID? {
        let body = token.utf8.drop { $0 != UInt8(ascii: "_") }.dropFirst()
        guard body.count == sessionTokenLength, let bytes = Base64URL.decode(utf8: body) else { return nil }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// 16 bytes of id and 32 random, in base64url.
    private static let sessionTokenLength = 64

    /// 256 random bits.
    private static func randomBytes() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<4 { withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) } }
        return bytes
    }

    /// Lowercase hex of the token's SHA-256. Every authenticated request hashes its token, so the
    /// hex is written directly (`String(format:)` per byte was a tenth of a refresh's CPU).
    static func hash(_ token: String) -> String {
        let digest = SHA256.hash(data: Data(token.utf8))
        return String(unsafeUninitializedCapacity: SHA256.byteCount * 2) { text in
            var index = 0
            for byte in digest {
                text[index] = hexDigits[Int(byte >> 4)]
                text[index + 1] = hexDigits[Int(byte & 0x0f)]
                index += 2
            }
            return index
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Compares secrets in time that depends only on their lengths.
    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(lhs.utf8, rhs.utf8) { difference |= a ^ b }
        return difference == 0
    }
}
