import Foundation

/// A row of `monica_gifts`: an idea, offered or received, for a contact, maybe for another one.
struct GiftRecord: MonicaRecord {
    static let table = "monica_gifts"

    let id: Int64
    let uuid: String
    let contactID: Int64
    let name: String
    let comment: String?
    let url: String?
    let amount: Double?
    let status: String
    let date: String?
    let recipientID: Int64?
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, name, comment, url, amount, status, date
        case contactID = "contact_id", recipientID = "recipient_id", createdAt = "created_at", updatedAt = "updated_at"
    }
}

extension GiftRecord: NamesContacts {
    var namedContacts: [Int64] { [contactID] + (recipientID.map { [$0] } ?? []) }
}
