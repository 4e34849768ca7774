import Foundation
import KithCore

/// A person form's refusals as a person reads them, each shown next to its field ("Enter a first
/// name.") instead of the rule's words at the top of the page ("firstName is required."). The
/// problems come from the entity's own declaration, the check the write makes, so every bad
/// field is marked at once and no limit is written twice.
enum OutreachFormErrors {
    /// The person form's fields and how a sentence names them.
    static let labels: [(field: String, name: String)] = [
        ("firstName", "first name"), ("lastName", "last name"), ("enterpriseName", "enterprise"),
        ("comments", "comments"),
    ]

    /// Each refused field of the form, in words; empty when the fields may be written.
    static func problems(in form: WebForm) -> [String: String] {
        let typed = Dictionary(uniqueKeysWithValues: labels.map { ($0.field, JSONTree.string(form[$0.field])) })
        var words: [String: String] = [:]
        for problem in OutreachEntities.contact.problems(in: typed, isCreation: false) {
            guard let field = problem.field, words[field] == nil else { continue }
            words[field] = Self.words(problem, typed: form[field])
        }
        return words
    }

    /// A refusal of `typed` in words, by what is wrong with it; the rule's message when none fits.
    static func words(_ problem: APIErrorDetail, typed: String) -> String {
        guard let field = problem.field, let name = labels.first(where: { $0.field == field })?.name else {
            return problem.message
        }
        let trimmed = OutreachRules.trimmed(typed)
        if trimmed.isEmpty { return field == "enterpriseName" ? "Enter the enterprise." : "Enter a \(name)." }
        let limit = OutreachEntities.contact.maxLength(of: field)
        if trimmed.unicodeScalars.count > limit {
            return "Shorten the \(name) to \(limit) characters or fewer (it has \(trimmed.unicodeScalars.count))."
        }
        if typed.unicodeScalars.contains(where: { $0.value == 0 }) {
            return "Remove the invisible control character from the \(name)."
        }
        return problem.message
    }

    /// A refusal of the whole write (from `OutreachService`) as field errors when it names a
    /// field of the form, else nil (the page shows it at the top).
    static func fieldErrors(_ error: AppError, form: WebForm) -> [String: String]? {
        guard let field = error.detail.field, labels.contains(where: { $0.field == field }) else { return nil }
        return [field: words(error.detail, typed: form[field])]
    }
}
