import Foundation

/// The account rules both the server and clients check, so a client can explain a problem before a
/// round trip and the server stays the authority.
public enum CredentialRules {
    public static let minimumPasswordCharacters = 8
    /// bcrypt only reads the first 72 bytes; a longer password would silently be truncated.
    public static let maximumPasswordBytes = 72
    public static let maximumEmailLength = 254
    public static let maximumTokenNameLength = 100

    /// Emails are trimmed and compared case-insensitively, so they are stored lower-cased.
    public static func normalizedEmail(_ raw: String) -> String {
        raw.trimmedWhitespace.lowercased()
    }

    /// Checks a normalized email: one `@`, a non-empty local part, a dotted domain, no spaces.
    public static func validateEmail(_ email: String) -> APIErrorDetail? {
        let invalid = APIErrorDetail(.invalidEmail, "Enter a valid email address, like name@example.com.", field: "email")
        // Lengths in code points: graphemes with combining marks would let any size through.
        guard !email.isEmpty, email.unicodeScalars.count <= maximumEmailLength else { return invalid }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return invalid }
        let local = parts[0]
        let domain = parts[1]
        guard !local.isEmpty, local.unicodeScalars.count <= 64 else { return invalid }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && !$0.hasPrefix("-") && !$0.hasSuffix("-") })
        else { return invalid }
        let forbidden = CharacterSet.whitespacesAndNewlines.union(.controlCharacters)
            .union(CharacterSet(charactersIn: "<>()[]\\,;:\""))
        guard email.unicodeScalars.allSatisfy({ !forbidden.contains($0) }) else { return invalid }
        return nil
    }

    /// Checks a new password's length; `field` names the input it came from.
    public static func validateNewPassword(_ password: String, field: String = "password") -> APIErrorDetail? {
        if password.count < minimumPasswordCharacters {
            return APIErrorDetail(
                .weakPassword, "Use at least \(minimumPasswordCharacters) characters for your password.", field: field)
        }
        if password.utf8.count > maximumPasswordBytes {
            return APIErrorDetail(
                .passwordTooLong, "Use at most \(maximumPasswordBytes) bytes for your password.", field: field)
        }
        return nil
    }

    /// Token names are shown in lists: required, one line, bounded.
    public static func validateTokenName(_ name: String) -> APIErrorDetail? {
        let trimmed = name.trimmedWhitespace
        if trimmed.isEmpty {
            return APIErrorDetail(.validationFailed, "Give the token a name.", field: "name")
        }
        if trimmed.unicodeScalars.count > maximumTokenNameLength
            || trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
        {
            return APIErrorDetail(
                .validationFailed, "Use one line of at most \(maximumTokenNameLength) characters.", field: "name")
        }
        return nil
    }
}
