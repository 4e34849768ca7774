import Foundation

/// Outreach's rules across records (docs/outreach.md): year names unique per account (trimmed, ignoring
/// case), the last year never deleted, a year's people deleted with it, a person only in a year
/// that exists.
public enum OutreachRules {
    public static let all: [any RecordRule] = [YearRule(), ContactRule()]

    public static func trimmed(_ text: String) -> String { text.trimmedWhitespace }

    /// The problem with naming a year `name` when `others` exist, if any.
    public static func yearNameProblem(_ name: String, others: [String]) -> APIErrorDetail? {
        let trimmed = trimmed(name)
        if let problem = OutreachEntities.year.problems(in: ["name": .string(trimmed)], isCreation: false).first { return problem }
        if others.contains(where: { $0.compare(trimmed, options: [.caseInsensitive]) == .orderedSame }) {
            return APIErrorDetail(.duplicateYear, "There is already a year named \(trimmed).", field: "name")
        }
        return nil
    }

    public static let lastYear = APIErrorDetail(.lastYear, "The last year can't be deleted.")

    struct YearRule: RecordRule {
        var entity: String { OutreachEntities.year.name }
        var reads: [String] { [OutreachEntities.year.name] }
        var cascadeReads: [String] { [OutreachEntities.contact.name] }

        func problem(with mutation: Mutation, current: SyncRecord?, records: [String: [SyncRecord]], context: RuleContext)
            -> APIErrorDetail?
        {
            let years = (records[entity] ?? []).filter { $0.id != mutation.id }
            switch mutation.op {
            case .delete:
                return current?.isDeleted == false && years.isEmpty ? OutreachRules.lastYear : nil
            case .upsert:
                guard case .string(let name) = mutation.fields["name"] else { return nil }
                return OutreachRules.yearNameProblem(name, others: years.compactMap { year in
                    if case .string(let other) = year.fields["name"] { return other }
                    return nil
                })
            }
        }

        func cascade(of mutation: Mutation, records: [String: [SyncRecord]]) -> [SyncRecord] {
            guard mutation.op == .delete else { return [] }
            let year = JSONTree.string(mutation.id.lowercased)
            return (records[OutreachEntities.contact.name] ?? []).filter { $0.fields["yearId"] == year }
        }
    }

    struct ContactRule: RecordRule {
        var entity: String { OutreachEntities.contact.name }
        var reads: [String] { [OutreachEntities.year.name] }

        func problem(with mutation: Mutation, current: SyncRecord?, records: [String: [SyncRecord]], context: RuleContext)
            -> APIErrorDetail?
        {
            guard mutation.op == .upsert, case .string(let yearText) = mutation.fields["yearId"] else { return nil }
            let years = records[OutreachEntities.year.name] ?? []
            guard years.contains(where: { $0.id.lowercased == yearText.lowercased() }) else {
                return APIErrorDetail(.notFound, "This person's year does not exist (it may have been deleted).", field: "yearId")
            }
            return nil
        }
    }
}
