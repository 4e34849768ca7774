import Crypto
import KithCore
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
        return "\(kind.rawValue)_\(Base64URL.encode(bytes))"
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
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
