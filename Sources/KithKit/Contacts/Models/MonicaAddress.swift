import Foundation
import KithCore

/// A country as Monica names it, by its upper-case ISO 3166 code.
public struct MonicaCountry: LenientDecodable, Equatable, Identifiable {
    /// Monica 4 sends the code as both `id` and `iso`; older servers had numeric ids and the code
    /// in `iso` only.
    @Lenient var iso: String?
    @Lenient var givenID: String?
    @Lenient var givenName: String?

    enum CodingKeys: String, CodingKey { case iso, givenID = "id", givenName = "name" }

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// The upper-case ISO 3166 code.
    public var id: String {
        get { (iso ?? givenID ?? "").uppercased() }
        set {
            iso = newValue
            givenID = newValue
        }
    }

    /// Monica's name for the country, else the ISO list's.
    public var name: String {
        get { givenName ?? ISOCountries.names[id] ?? id }
        set { givenName = newValue }
    }

    /// A country without a code is unreadable: a list leaves it out, an address has no country.
    public static func decodeLeniently(from decoder: any Decoder) throws -> MonicaCountry {
        let country = try MonicaCountry(from: decoder)
        guard !country.id.isEmpty else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a country needs a code"))
        }
        return country
    }

    /// The same country by its code and name, whichever keys the server sent them under.
    public static func == (a: MonicaCountry, b: MonicaCountry) -> Bool { a.id == b.id && a.name == b.name }
}

/// One of a contact's addresses.
public struct MonicaAddress: LenientDecodable, Equatable, Identifiable {
    /// Negative while the address was made on this device and not yet sent to the server.
    @Required public var id: Int
    @Lenient public var uuid: String?
    /// The label: "Home", "Work", or any text.
    @Lenient public var name: String?
    @Lenient public var street: String?
    @Lenient public var city: String?
    @Lenient public var province: String?
    @Lenient public var postalCode: String?
    @Lenient public var latitude: Double?
    @Lenient public var longitude: Double?
    /// Where a Kith server's coordinates come from: "typed", "geocoded" (found from the address's
    /// text), "locating" (not yet), "not_found"; nil from Monica, or with nothing to locate.
    @Lenient public var coordinatesSource: String?
    @Lenient public var country: MonicaCountry?
    @Lenient public var contact: MonicaContactSummary?
    @Lenient public var createdAt: Date?
    @Lenient public var updatedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, uuid, name, street, city, province, latitude, longitude, country, contact
        case postalCode = "postal_code", createdAt = "created_at", updatedAt = "updated_at"
        case coordinatesSource = "coordinates_source"
    }

    /// Whether the server found the coordinates from the address's text (nobody typed them).
    public var isLocatedByServer: Bool { coordinatesSource == "geocoded" && postal.coordinates != nil }

    public init(id: Int, contact: MonicaContactSummary?, _ address: PostalAddress) {
        self.id = id
        self.contact = contact
        name = address.label
        street = address.street
        city = address.city
        province = address.province
        postalCode = address.postalCode
        latitude = address.latitude
        longitude = address.longitude
        country = address.countryCode.map {
            MonicaCountry(id: $0, name: address.countryName ?? ISOCountries.names[$0] ?? $0)
        }
    }

    /// Whether the server has it yet.
    public var isPending: Bool { id < 0 }

    /// The address for formatting, maps and forms.
    public var postal: PostalAddress {
        PostalAddress(
            label: name, street: street, city: city, province: province, postalCode: postalCode,
            countryCode: country?.id, countryName: country?.name, latitude: latitude, longitude: longitude)
    }
}
