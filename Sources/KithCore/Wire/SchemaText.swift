import Foundation

/// Text bounds as openapi.yaml states them, so the server refuses exactly what the description
/// says it does: lengths in Unicode code points (JSON Schema's `maxLength`) as sent, and "blank"
/// as the pattern `\S` (ECMAScript's `\s`) understands white space.
public enum SchemaText {
    static let blank = CharacterSet(
        charactersIn: "\u{09}\u{0A}\u{0B}\u{0C}\u{0D}\u{20}\u{A0}\u{1680}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}\u{FEFF}"
    ).union(CharacterSet(charactersIn: "\u{2000}"..."\u{200A}"))

    /// `text` trimmed of surrounding white space, or why it can't be used (for `field`): longer
    /// than `maxLength` code points as sent, or blank. `tooLong` and `empty` are the messages.
    public static func checked(_ text: String, maxLength: Int, field: String, tooLong: String, empty: String)
        -> Result<String, APIErrorDetail>
    {
        guard text.unicodeScalars.count <= maxLength else {
            return .failure(APIErrorDetail(.validationFailed, tooLong, field: field))
        }
        let trimmed = text.trimmingCharacters(in: blank)
        guard !trimmed.isEmpty else { return .failure(APIErrorDetail(.validationFailed, empty, field: field)) }
        return .success(trimmed)
    }
}
