import Foundation

/// A person's refused field in the words of its label ("Enter a first name.", "Shorten the last
/// name to 50 characters or fewer (it has 63).") rather than the rule's ("firstName is
/// required."), by what is wrong with the value. The web form, the command line and a CSV
/// import's skipped lines all say it this way; the check itself is the entity's declaration.
public enum OutreachFieldWords {
    /// What can be wrong with a typed value, read from the value itself.
    public enum Trouble: String, Sendable, Hashable {
        case missing, tooLong, control, invalid
    }

    /// A person's fields, as a sentence names them and as a CSV file's header does.
    public static let labels: [(field: String, name: String, column: String)] = [
        (OutreachFields.firstName, "first name", "First Name"), (OutreachFields.lastName, "last name", "Last Name"),
        (OutreachFields.enterpriseName, "enterprise", "Enterprise"), (OutreachFields.comments, "comments", "Comments"),
    ]

    /// Each refused field of a person's typed values (field name to value), in words; empty when
    /// they may be written.
    public static func problems(in typed: [String: String]) -> [String: String] {
        let values = typed.mapValues(JSONTree.string)
        var words: [String: String] = [:]
        for problem in OutreachEntities.contact.problems(in: values, isCreation: false) {
            guard let field = problem.field, words[field] == nil else { continue }
            let value = typed[field] ?? ""
            words[field] = sentence(field, trouble(field, typed: value), typed: value, fallback: problem.message)
        }
        return words
    }

    /// What is wrong with `typed` as the value of `field`, judged as the declaration judges it.
    public static func trouble(_ field: String, typed: String) -> Trouble {
        let trimmed = OutreachRules.trimmed(typed)
        if trimmed.isEmpty && field != OutreachFields.comments { return .missing }
        if trimmed.unicodeScalars.count > OutreachEntities.contact.maxLength(of: field) { return .tooLong }
        if typed.unicodeScalars.contains(where: { $0.value == 0 }) { return .control }
        return .invalid
    }

    /// The sentence a form shows next to `field`; `fallback` (the rule's words) when nothing fits.
    public static func sentence(_ field: String, _ trouble: Trouble, typed: String = "", fallback: String = "")
        -> String
    {
        guard let name = labels.first(where: { $0.field == field })?.name else { return fallback }
        switch trouble {
        case .missing: return field == OutreachFields.enterpriseName ? "Enter the enterprise." : "Enter a \(name)."
        case .tooLong:
            let limit = OutreachEntities.contact.maxLength(of: field)
            let count = OutreachRules.trimmed(typed).unicodeScalars.count
            return "Shorten the \(name) to \(limit) characters or fewer" + (count > 0 ? " (it has \(count))." : ".")
        case .control: return "Remove the invisible control character from the \(name)."
        case .invalid: return fallback.isEmpty ? "Check the \(name)." : fallback
        }
    }

    /// The sentence for a refused field of a whole write (a rule's refusal naming the field), or
    /// nil when it names none of a person's fields.
    public static func sentence(for problem: APIErrorDetail, typed: String) -> String? {
        guard let field = problem.field, labels.contains(where: { $0.field == field }) else { return nil }
        return sentence(field, trouble(field, typed: typed), typed: typed, fallback: problem.message)
    }
}
