import Foundation

/// The fields each Outreach change writes, built the same way wherever the change is made (a
/// device's store, the web pages), so a record looks alike whoever wrote it.
public enum OutreachFields {
    public static func year(name: String, createdAt: Date) -> [String: JSONTree] {
        ["name": .string(OutreachRules.trimmed(name)), "createdAt": .string(WireCoding.formatTimestamp(createdAt))]
    }

    /// A new person: names trimmed, not delivered.
    public static func newContact(year: UUID, first: String, last: String, enterprise: String, comments: String)
        -> [String: JSONTree]
    {
        [
            "yearId": .string(year.lowercased), "firstName": .string(OutreachRules.trimmed(first)),
            "lastName": .string(OutreachRules.trimmed(last)), "enterpriseName": .string(OutreachRules.trimmed(enterprise)),
            "comments": .string(comments), "delivered": .bool(false), "deliveredAt": .null,
        ]
    }

    /// An edit: only the given fields; nil leaves a field as it is.
    public static func edit(first: String?, last: String?, enterprise: String?, comments: String?) -> [String: JSONTree] {
        var fields: [String: JSONTree] = [:]
        if let first { fields["firstName"] = .string(OutreachRules.trimmed(first)) }
        if let last { fields["lastName"] = .string(OutreachRules.trimmed(last)) }
        if let enterprise { fields["enterpriseName"] = .string(OutreachRules.trimmed(enterprise)) }
        if let comments { fields["comments"] = .string(comments) }
        return fields
    }

    /// Delivered now (the time of the tap or click), or not delivered (the time cleared).
    public static func delivery(_ delivered: Bool, at time: Date) -> [String: JSONTree] {
        ["delivered": .bool(delivered), "deliveredAt": delivered ? .string(WireCoding.formatTimestamp(time)) : .null]
    }

    public static func lastViewed(_ year: UUID) -> [String: JSONTree] { ["lastViewedYearId": .string(year.lowercased)] }

    /// The account's one preferences record has an id every device derives alike, so two devices
    /// write the same record and the merge keeps the latest choice.
    public static func preferencesID(scope: String) -> UUID { StableUUID.make(from: "outreach.preferences " + scope) }

    public static let identities = [
        DerivedIdentity(entity: OutreachEntities.preferences.name) { scope, _ in preferencesID(scope: scope) }
    ]
}
