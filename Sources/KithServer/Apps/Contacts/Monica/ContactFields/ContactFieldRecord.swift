import Foundation

/// A row of `monica_contact_fields`: an email, a phone number, a profile… of a contact.
struct ContactFieldRecord: MonicaRecord {
    static let table = "monica_contact_fields"

    let id: Int64
    let uuid: String
    let contactID: Int64
    let contactFieldTypeID: Int64
    let data: String
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, data
        case contactID = "contact_id", contactFieldTypeID = "contact_field_type_id", createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

extension ContactFieldRecord: NamesContacts {
    var namedContacts: [Int64] { [contactID] }
}
