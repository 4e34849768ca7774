import Foundation

/// A row of `monica_life_events`: something that happened to a contact (a new job, a move), on a
/// day whose month or day may be unknown, maybe remembered yearly by a reminder.
struct LifeEventRecord: MonicaRecord {
    static let table = "monica_life_events"

    let id: Int64
    let uuid: String
    let contactID: Int64
    let lifeEventTypeID: Int64
    let name: String?
    let note: String?
    /// `Y-m-d`.
    let happenedAt: String
    @StoredFlag var happenedAtMonthUnknown: Bool
    @StoredFlag var happenedAtDayUnknown: Bool
    let reminderID: Int64?
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, name, note
        case contactID = "contact_id", lifeEventTypeID = "life_event_type_id", happenedAt = "happened_at"
        case happenedAtMonthUnknown = "happened_at_month_unknown", happenedAtDayUnknown = "happened_at_day_unknown"
        case reminderID = "reminder_id", createdAt = "created_at", updatedAt = "updated_at"
    }
}

extension LifeEventRecord: NamesContacts {
    var namedContacts: [Int64] { [contactID] }
}

/// A row of `monica_life_event_types`.
struct LifeEventTypeRecord: MonicaRecord {
    static let table = "monica_life_event_types"

    let id: Int64
    let lifeEventCategoryID: Int64
    let name: String?
    let defaultLifeEventTypeKey: String?
    @StoredFlag var coreMonicaData: Bool
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, name
        case lifeEventCategoryID = "life_event_category_id", defaultLifeEventTypeKey = "default_life_event_type_key"
        case coreMonicaData = "core_monica_data", createdAt = "created_at", updatedAt = "updated_at"
    }
}

/// A row of `monica_life_event_categories`.
struct LifeEventCategoryRecord: MonicaRecord {
    static let table = "monica_life_event_categories"

    let id: Int64
    let name: String?
    let defaultLifeEventCategoryKey: String?
    @StoredFlag var coreMonicaData: Bool
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, name
        case defaultLifeEventCategoryKey = "default_life_event_category_key", coreMonicaData = "core_monica_data"
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}

/// A type with its category, as a life event shows it.
struct LifeEventKind: Sendable {
    let type: LifeEventTypeRecord
    let category: LifeEventCategoryRecord?
}
