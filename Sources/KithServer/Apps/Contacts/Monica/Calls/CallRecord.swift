import Foundation

/// A row of `monica_calls`: a phone call with a contact, who called, and what was said.
struct CallRecord: MonicaRecord {
    static let table = "monica_calls"

    let id: Int64
    let uuid: String
    let contactID: Int64
    let calledAt: Int64
    let content: String?
    @StoredFlag var contactCalled: Bool
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, content
        case contactID = "contact_id", calledAt = "called_at", contactCalled = "contact_called"
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}

extension CallRecord: NamesContacts {
    var namedContacts: [Int64] { [contactID] }
}
