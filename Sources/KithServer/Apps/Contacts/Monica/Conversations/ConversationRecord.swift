import Foundation

/// A row of `monica_conversations`: an exchange with a contact over one channel (a contact field
/// type: email, a messenger…), when it happened; its messages are `MessageRecord`s.
struct ConversationRecord: MonicaRecord {
    static let table = "monica_conversations"

    let id: Int64
    let uuid: String
    let contactID: Int64
    let contactFieldTypeID: Int64
    let happenedAt: Int64
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid
        case contactID = "contact_id", contactFieldTypeID = "contact_field_type_id", happenedAt = "happened_at"
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}

extension ConversationRecord: NamesContacts {
    var namedContacts: [Int64] { [contactID] }
}
