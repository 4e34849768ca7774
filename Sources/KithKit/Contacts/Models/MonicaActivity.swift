import Foundation

/// Something the user did with one or more contacts.
public struct MonicaActivity: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var summary: String
    @Lenient public var description: String?
    @Lenient public var happenedAt: MonicaDay?
    @Lenient public var activityType: MonicaActivityType?
    /// Everyone who took part (a contact's activity lists them all; tap one to open it), from
    /// `"attendees": {"contacts": […]}`.
    @Nested<Attendees> public var attendees: [MonicaContactSummary]
    @Lenient public var createdAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, summary, description, attendees
        case happenedAt = "happened_at", activityType = "activity_type", createdAt = "created_at"
    }

    /// Monica lists an activity's attendees in an object: `{"total": 2, "contacts": […]}`.
    public enum Attendees: NestedField {
        public typealias Value = [MonicaContactSummary]
        public static var key: String { "contacts" }
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
public struct MonicaActivityType: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var name: String
    @Lenient public var category: MonicaActivityTypeCategory?

    enum CodingKeys: String, CodingKey { case id, name, category = "activity_type_category" }
}
