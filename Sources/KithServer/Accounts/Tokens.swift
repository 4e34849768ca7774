import Crypto
import Foundation

/// Opaque bearer secrets. A token is 256 random bits, base64url, behind a short prefix that tells a
/// person (or a secret scanner) what it is. Only its SHA-256 is ever stored.
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
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<4 { withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) } }
        return "\(kind.rawValue)_\(base64URL(bytes))"
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

    /// Base64url without padding (RFC 4648 §5), written directly: a refresh makes two tokens.
    static func base64URL(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var group = 0
            for (offset, byte) in chunk.enumerated() { group |= Int(byte) << (16 - 8 * offset) }
            for position in 0...chunk.count { text.append(base64URLDigits[(group >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let base64URLDigits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Compares secrets in time that depends only on their lengths.
    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
