import Foundation
import KithCore

/// A person form's refusals as a person reads them, each next to its field ("Enter a first name.")
/// instead of the rule's words at the top of the page ("firstName is required."): the words are
/// KithCore's `OutreachFieldWords`, the check is the entity's own declaration, so every bad field
/// is marked at once and no limit is written twice.
enum OutreachFormErrors {
    /// Each refused field of the form, in words; empty when the fields may be written.
    static func problems(in form: WebForm) -> [String: String] {
        OutreachFieldWords.problems(
            in: Dictionary(uniqueKeysWithValues: OutreachFieldWords.labels.map { ($0.field, form[$0.field]) }))
    }

    /// A refusal of the whole write (from `OutreachService`) as field errors when it names a
    /// field of the form, else nil (the page shows it at the top).
    static func fieldErrors(_ error: AppError, form: WebForm) -> [String: String]? {
        guard let field = error.detail.field,
            let words = OutreachFieldWords.sentence(for: error.detail, typed: form[field])
        else { return nil }
        return [field: words]
    }
}
