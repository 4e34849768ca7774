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
    /// Typed coordinates: never written by the geocoder.
    let latitude: Double?
    let longitude: Double?
    /// Where the geocoder found the address (`AddressGeocoding`), used when none are typed.
    let geocodedLatitude: Double?
    let geocodedLongitude: Double?
    /// The search (`NominatimSearch.normalizedKey`) the geocoded coordinates answer, or the one
    /// waiting to be asked; nil when the address is not to be located.
    let geocodeQuery: String?
    /// When the geocoder's answer for `geocodeQuery` was stored (found or not).
    let geocodedAt: Int64?
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, name, street, city, province, country, latitude, longitude
        case contactID = "contact_id", postalCode = "postal_code", createdAt = "created_at", updatedAt = "updated_at"
        case geocodedLatitude = "geocoded_latitude", geocodedLongitude = "geocoded_longitude"
        case geocodeQuery = "geocode_query", geocodedAt = "geocoded_at"
    }

    /// Where the address's map points: the typed coordinates, else the geocoded ones.
    var shownCoordinates: (latitude: Double, longitude: Double)? {
        if let latitude, let longitude { return (latitude, longitude) }
        if let geocodedLatitude, let geocodedLongitude { return (geocodedLatitude, geocodedLongitude) }
        return nil
    }

    /// Kith's `coordinates_source`: "typed", "geocoded", "locating" (the geocoder has not answered
    /// yet), "not_found", or nil (no coordinates, none looked for).
    var coordinatesSource: String? {
        if latitude != nil, longitude != nil { return "typed" }
        if geocodedLatitude != nil, geocodedLongitude != nil { return "geocoded" }
        guard geocodeQuery != nil else { return nil }
        return geocodedAt == nil ? "locating" : "not_found"
    }
}

extension AddressRecord: NamesContacts {
    var namedContacts: [Int64] { [contactID] }
}
