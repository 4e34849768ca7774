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
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let encoded = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "\(kind.rawValue)_\(encoded)"
    }

    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

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
