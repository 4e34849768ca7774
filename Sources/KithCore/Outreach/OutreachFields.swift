import Foundation

/// The fields each Outreach change writes, built the same way wherever the change is made (a
/// device's store, the web pages), so a record looks alike whoever wrote it.
public enum OutreachFields {
    // The records' field names, spelled once.
    public static let name = "name"
    public static let createdAt = "createdAt"
    public static let yearId = "yearId"
    public static let firstName = "firstName"
    public static let lastName = "lastName"
    public static let enterpriseName = "enterpriseName"
    public static let comments = "comments"
    public static let delivered = "delivered"
    public static let deliveredAt = "deliveredAt"
    public static let lastViewedYearId = "lastViewedYearId"

    /// What importing a file again may change on a person already in the year.
    static let importUpdates: Set<String> = [delivered, deliveredAt, comments]

    public static func year(name: String, createdAt time: Date) -> [String: JSONTree] {
        [Self.name: .string(OutreachRules.trimmed(name)), createdAt: .string(WireCoding.formatTimestamp(time))]
    }

    /// A new person: names trimmed, not delivered.
    public static func newContact(year: UUID, first: String, last: String, enterprise: String, comments: String)
        -> [String: JSONTree]
    {
        [
            yearId: .string(year.lowercased), firstName: .string(OutreachRules.trimmed(first)),
            lastName: .string(OutreachRules.trimmed(last)), enterpriseName: .string(OutreachRules.trimmed(enterprise)),
            Self.comments: .string(comments), delivered: .bool(false), deliveredAt: .null,
        ]
    }

    /// A person's edit, field by field: nil leaves a field as it is. `seen` is the person as the
    /// writer saw them (a form), so only what changed is written; nil writes every given field.
    public static func edits(
        first: String?, last: String?, enterprise: String?, comments: String?, seen: OutreachContact? = nil
    ) -> [FieldEdit] {
        let given: [(String, String?, String?)] = [
            (firstName, first, seen?.firstName), (lastName, last, seen?.lastName),
            (enterpriseName, enterprise, seen?.enterpriseName), (Self.comments, comments, seen?.comments),
        ]
        return given.compactMap { field, value, seen in value.map { FieldEdit(field, seen: seen, value: $0) } }
    }

    /// Delivered now (the time of the tap or click), or not delivered (the time cleared).
    public static func delivery(_ delivered: Bool, at time: Date) -> [String: JSONTree] {
        [Self.delivered: .bool(delivered), deliveredAt: delivered ? .string(WireCoding.formatTimestamp(time)) : .null]
    }

    public static func lastViewed(_ year: UUID) -> [String: JSONTree] { [lastViewedYearId: .string(year.lowercased)] }

    /// The account's one preferences record has an id every device derives alike, so two devices
    /// write the same record and the merge keeps the latest choice.
    public static func preferencesID(scope: String) -> UUID { StableUUID.make(from: "outreach.preferences " + scope) }

    public static let identities = [
        DerivedIdentity(entity: OutreachEntities.preferences.name) { scope, _ in preferencesID(scope: scope) }
    ]
}
