import Foundation
import KithCore

/// A country as Monica names it: `id` and `iso` are the upper-case ISO 3166 code.
public struct MonicaCountry: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    enum CodingKeys: String, CodingKey { case id, name, iso }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        // Monica 4 uses the ISO code as id; older servers had numeric ids and the code in `iso`.
        let iso = fields.lenientString(.iso)
        guard let code = (iso ?? fields.lenientString(.id))?.uppercased() else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: fields, debugDescription: "a country needs a code")
        }
        id = code
        name = fields.lenientString(.name) ?? ISOCountries.names[code] ?? code
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(id, forKey: .id)
        try fields.encode(id, forKey: .iso)
        try fields.encode(name, forKey: .name)
    }
}

/// One of a contact's addresses (seed 001).
public struct MonicaAddress: Codable, Sendable, Equatable, Identifiable {
    /// Negative while the address was made on this device and not yet sent to the server.
    public var id: Int
    public var uuid: String?
    /// The label: "Home", "Work", or any text.
    public var name: String?
    public var street: String?
    public var city: String?
    public var province: String?
    public var postalCode: String?
    public var latitude: Double?
    public var longitude: Double?
    public var country: MonicaCountry?
    public var contact: MonicaContactSummary?
    public var createdAt: Date?
    public var updatedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, uuid, name, street, city, province, latitude, longitude, country, contact
        case postalCode = "postal_code", createdAt = "created_at", updatedAt = "updated_at"
    }

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

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.requiredInt(.id)
        uuid = fields.lenientString(.uuid)
        name = fields.lenientString(.name)
        street = fields.lenientString(.street)
        city = fields.lenientString(.city)
        province = fields.lenientString(.province)
        postalCode = fields.lenientString(.postalCode)
        latitude = fields.lenientDouble(.latitude)
        longitude = fields.lenientDouble(.longitude)
        country = fields.lenient(MonicaCountry.self, .country)
        contact = fields.lenient(MonicaContactSummary.self, .contact)
        createdAt = fields.lenientDate(.createdAt)
        updatedAt = fields.lenientDate(.updatedAt)
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
