import Foundation

/// A point on Earth, in degrees.
public struct Coordinates: Codable, Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Coordinates worth showing on a map: both present, in range, and not (0, 0), which geocoders
    /// and importers write when they know nothing.
    public init?(latitude: Double?, longitude: Double?) {
        guard let latitude, let longitude, (-90...90).contains(latitude), (-180...180).contains(longitude),
            latitude != 0 || longitude != 0
        else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }
}

/// A contact's address as people read it: the parts Monica keeps, formatted the way the country
/// writes addresses.
public struct PostalAddress: Codable, Sendable, Equatable {
    /// Monica's `max:255` on each text part, counted in code points as Laravel counts them
    /// (graphemes would let combining marks through without bound).
    public static let maximumFieldLength = 255

    public static func isTooLong(_ text: String?) -> Bool {
        (text?.unicodeScalars.count ?? 0) > maximumFieldLength
    }

    /// Monica's `name`: "Home", "Work", or any text.
    public var label: String?
    public var street: String?
    public var city: String?
    public var province: String?
    public var postalCode: String?
    /// ISO 3166-1 alpha-2 code, upper case.
    public var countryCode: String?
    /// The country as the server named it; the English name of `countryCode` when nil.
    public var countryName: String?
    public var latitude: Double?
    public var longitude: Double?

    public init(
        label: String? = nil, street: String? = nil, city: String? = nil, province: String? = nil,
        postalCode: String? = nil, countryCode: String? = nil, countryName: String? = nil, latitude: Double? = nil,
        longitude: Double? = nil
    ) {
        self.label = label
        self.street = street
        self.city = city
        self.province = province
        self.postalCode = postalCode
        self.countryCode = countryCode
        self.countryName = countryName
        self.latitude = latitude
        self.longitude = longitude
    }

    /// No part given at all (blank text counts as none): such an address is refused.
    public var isEmpty: Bool {
        let texts = [label, street, city, province, postalCode, countryCode]
        return texts.allSatisfy { ($0 ?? "").trimmedWhitespace.isEmpty }
            && latitude == nil && longitude == nil
    }

    /// Where to put a pin, when the address has usable coordinates.
    public var coordinates: Coordinates? { Coordinates(latitude: latitude, longitude: longitude) }

    public var format: AddressFormat { .forCountry(countryCode) }

    /// The address's lines in its country's order, ending with the country.
    public var lines: [String] {
        format.lines(
            street: street, city: city, province: province, postalCode: postalCode,
            countryName: countryDisplayName)
    }

    /// The country as the server named it, else the English name of its code.
    public var countryDisplayName: String? {
        countryName ?? countryCode.flatMap { ISOCountries.names[$0.uppercased()] }
    }

    /// The text that Copy and Share give: the lines, one per line.
    public var formatted: String { lines.joined(separator: "\n") }
}
