import Foundation

/// A row of `monica_contact_field_types`: Email, Phone, Facebook… per account.
struct ContactFieldTypeRecord: MonicaRecord {
    static let table = "monica_contact_field_types"

    let id: Int64
    let name: String
    let fontawesomeIcon: String?
    let `protocol`: String?
    let type: String?
    @StoredFlag var delible: Bool
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, name, type, delible, `protocol`
        case fontawesomeIcon = "fontawesome_icon", createdAt = "created_at", updatedAt = "updated_at"
    }
}
