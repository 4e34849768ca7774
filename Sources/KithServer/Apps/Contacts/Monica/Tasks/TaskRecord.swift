import Foundation

/// A row of `monica_tasks`; a task may belong to no contact.
struct TaskRecord: MonicaRecord {
    static let table = "monica_tasks"

    let id: Int64
    let uuid: String
    let contactID: Int64?
    let title: String
    let description: String?
    @StoredFlag var completed: Bool
    let completedAt: Int64?
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, title, description, completed
        case contactID = "contact_id", completedAt = "completed_at", createdAt = "created_at", updatedAt = "updated_at"
    }
}

extension TaskRecord: NamesContacts {
    var namedContacts: [Int64] { contactID.map { [$0] } ?? [] }
}
