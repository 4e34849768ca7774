import Foundation

/// Something the user did with one or more contacts (seed 004 story 5).
public struct MonicaActivity: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var summary: String
    public var description: String?
    public var happenedAt: MonicaDay?
    public var activityType: MonicaActivityType?
    /// Everyone who took part (a contact's activity lists them all; tap one to open it).
    public var attendees: [MonicaContactSummary]
    public var createdAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, summary, description, attendees
        case happenedAt = "happened_at", activityType = "activity_type", createdAt = "created_at"
    }

    private struct Attendees: Codable {
        var contacts: [MonicaContactSummary]
        init(contacts: [MonicaContactSummary]) { self.contacts = contacts }
        init(from decoder: any Decoder) throws {
            contacts = try decoder.container(keyedBy: CodingKeys.self).lenientArray(
                MonicaContactSummary.self, .contacts)
        }
        enum CodingKeys: String, CodingKey { case contacts }
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.requiredInt(.id)
        summary = fields.lenientString(.summary) ?? ""
        description = fields.lenientString(.description)
        happenedAt = fields.lenientDay(.happenedAt)
        activityType = fields.lenient(MonicaActivityType.self, .activityType)
        attendees = fields.lenient(Attendees.self, .attendees)?.contacts ?? []
        createdAt = fields.lenientDate(.createdAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(id, forKey: .id)
        try fields.encode(summary, forKey: .summary)
        try fields.encodeIfPresent(description, forKey: .description)
        try fields.encodeIfPresent(happenedAt, forKey: .happenedAt)
        try fields.encodeIfPresent(activityType, forKey: .activityType)
        try fields.encode(Attendees(contacts: attendees), forKey: .attendees)
        try fields.encodeIfPresent(createdAt, forKey: .createdAt)
    }

    /// Newest first by the day it happened, then by when it was written down.
    public static func newestFirst(_ a: MonicaActivity, _ b: MonicaActivity) -> Bool {
        let dayA = a.happenedAt ?? MonicaDay(year: 1, month: 1, day: 1)!
        let dayB = b.happenedAt ?? MonicaDay(year: 1, month: 1, day: 1)!
        if dayA != dayB { return dayA > dayB }
        return (a.createdAt ?? .distantPast, a.id) > (b.createdAt ?? .distantPast, b.id)
    }
}

/// What kind of activity: "just hung out", "ate at a restaurant"…
public struct MonicaActivityType: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var name: String
    public var category: MonicaActivityTypeCategory?

    enum CodingKeys: String, CodingKey { case id, name, category = "activity_type_category" }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.requiredInt(.id)
        name = fields.lenientString(.name) ?? ""
        category = fields.lenient(MonicaActivityTypeCategory.self, .category)
    }
}
