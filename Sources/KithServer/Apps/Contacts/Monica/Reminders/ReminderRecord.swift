import Foundation

/// A row of `monica_reminders`: once, or every N weeks, months or years from an initial day.
struct ReminderRecord: MonicaRecord {
    static let table = "monica_reminders"

    let id: Int64
    let uuid: String
    let contactID: Int64
    let title: String
    let description: String?
    let initialDate: String
    let frequencyType: String
    let frequencyNumber: Int64?
    @StoredFlag var delible: Bool
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, title, description, delible
        case contactID = "contact_id", initialDate = "initial_date", frequencyType = "frequency_type"
        case frequencyNumber = "frequency_number", createdAt = "created_at", updatedAt = "updated_at"
    }
}

extension ReminderRecord: NamesContacts {
    var namedContacts: [Int64] { [contactID] }
}
