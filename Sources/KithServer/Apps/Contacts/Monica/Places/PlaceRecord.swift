import Foundation

/// A row of `monica_places`: a place of the account's own (not a contact's address), with no name.
struct PlaceRecord: MonicaRecord {
    static let table = "monica_places"

    let id: Int64
    let uuid: String
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
        case id, uuid, street, city, province, country, latitude, longitude
        case postalCode = "postal_code", createdAt = "created_at", updatedAt = "updated_at"
    }
}
