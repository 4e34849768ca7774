import Foundation

/// A row of `monica_messages`: one message of a conversation, written by the user or by the
/// conversation's contact (whose id every message repeats, as Monica's rows do).
struct MessageRecord: MonicaRecord {
    static let table = "monica_messages"

    let id: Int64
    let uuid: String
    let contactID: Int64
    let conversationID: Int64
    let content: String
    let writtenAt: Int64
    @StoredFlag var writtenByMe: Bool
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, content
        case contactID = "contact_id", conversationID = "conversation_id", writtenAt = "written_at"
        case writtenByMe = "written_by_me", createdAt = "created_at", updatedAt = "updated_at"
    }
}
