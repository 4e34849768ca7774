import Foundation

/// A row of `monica_notes`.
struct NoteRecord: MonicaRecord {
    static let table = "monica_notes"

    let id: Int64
    let uuid: String
    let contactID: Int64
    let body: String
    @StoredFlag var isFavorited: Bool
    let favoritedAt: Int64?
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, body
        case contactID = "contact_id", isFavorited = "is_favorited", favoritedAt = "favorited_at"
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}

extension NoteRecord: NamesContacts {
    var namedContacts: [Int64] { [contactID] }
}
