import Foundation

/// A row of `monica_addresses`: Monica keeps the place apart from the address; Kith keeps one row.
struct AddressRecord: MonicaRecord {
    static let table = "monica_addresses"

    let id: Int64
    let uuid: String
    let contactID: Int64
    let name: String?
    let street: String?
    let city: String?
    let province: String?
    let postalCode: String?
    /// An ISO 3166 code, upper case.
    let country: String?
    let latitude: Double?
    let longitude: Double?
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, name, street, city, province, country, latitude, longitude
        case contactID = "contact_id", postalCode = "postal_code", createdAt = "created_at", updatedAt = "updated_at"
    }
}

extension AddressRecord: NamesContacts {
    var namedContacts: [Int64] { [contactID] }
}
