import Foundation

/// What a contact's values must look like, the same on the server (`/api` refuses the rest) and on
/// a device (which can say so before a round trip): an email field holds an email, a phone field a
/// phone number, a gift's link a web address.
public enum ContactValueFormats {
    /// Fewer digits than this is not a number anyone can call (an emergency number is 3).
    public static let minimumPhoneDigits = 3

    /// One `@`, a non-empty local part, a dotted domain, no spaces: the account email's rule.
    public static func isEmail(_ text: String) -> Bool {
        CredentialRules.validateEmail(CredentialRules.normalizedEmail(text)) == nil
    }

    /// Digits, spaces and `+ ( ) - .` only, with at least `minimumPhoneDigits` digits: what people
    /// write for a number ("+44 (0)20 7946 0958", "555-0100"), and nothing a dialler cannot use.
    public static func isPhone(_ text: String) -> Bool {
        let allowed = Set("0123456789 +()-.")
        let trimmed = text.trimmedWhitespace
        guard trimmed.allSatisfy({ allowed.contains($0) }) else { return false }
        return trimmed.filter { ("0"..."9").contains($0) }.count >= minimumPhoneDigits
    }

    /// An `http` or `https` address with a host: a link a browser can open, never `javascript:`
    /// or a file on the reader's machine.
    public static func isWebLink(_ text: String) -> Bool {
        let trimmed = text.trimmedWhitespace
        guard !trimmed.unicodeScalars.contains(where: { CharacterSet.whitespacesAndNewlines.contains($0) }),
            let components = URLComponents(string: trimmed),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { return false }
        return true
    }

    /// The rule for a contact field of `kind` (a field type's `type`: "email", "phone", or none),
    /// as a sentence naming the field `attribute`; nil when the value is fine.
    public static func problem(kind: String?, value: String, attribute: String) -> String? {
        switch kind {
        case "email" where !isEmail(value): "The \(attribute) must be a valid email address."
        case "phone" where !isPhone(value):
            "The \(attribute) must be a phone number: digits, spaces and + ( ) - . only, at least \(minimumPhoneDigits) digits."
        default: nil
        }
    }
}
