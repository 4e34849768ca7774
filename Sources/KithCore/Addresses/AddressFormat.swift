import Foundation

/// The parts of a postal address, in the words of Monica's address (`province` is the state,
/// county, region…).
public enum AddressPart: String, Codable, Sendable, CaseIterable {
    case street, city, province, postalCode, country
}

/// One part on a line of a formatted address. `separator` is written before the part only when
/// something precedes it on the same line ("Springfield, IL 62701" without a city is "IL 62701").
public struct AddressLinePiece: Codable, Sendable, Equatable {
    public let part: AddressPart
    public let separator: String

    public init(_ part: AddressPart, after separator: String = "") {
        self.part = part
        self.separator = separator
    }
}

/// How a country writes its addresses: what its forms call the postal code and the region, and
/// the order of the lines on an envelope. Countries not listed use `standard` (street, then postal
/// code and city, then region), which is how most of the world writes them.
public struct AddressFormat: Codable, Sendable, Equatable {
    public let postalCodeLabel: String
    public let regionLabel: String
    /// Lines, top to bottom; a line whose parts are all empty is left out.
    public let lines: [[AddressLinePiece]]

    public init(postalCodeLabel: String, regionLabel: String, lines: [[AddressLinePiece]]) {
        self.postalCodeLabel = postalCodeLabel
        self.regionLabel = regionLabel
        self.lines = lines
    }

    public static let standard = AddressFormat(
        postalCodeLabel: "Postal Code", regionLabel: "Region", lines: Order.postalCodeThenCity)

    /// The format of the country with this ISO code (any case); `standard` when unknown or nil.
    public static func forCountry(_ code: String?) -> AddressFormat {
        guard let code = code?.uppercased() else { return standard }
        return allCountries[code] ?? standard
    }

    /// The countries whose format differs from `standard`, by upper-case ISO code.
    public static let allCountries: [String: AddressFormat] = {
        var formats: [String: AddressFormat] = [:]
        for code in Set(postalCodeLabels.keys).union(regionLabels.keys).union(lineOrders.keys) {
            let format = AddressFormat(
                postalCodeLabel: postalCodeLabels[code] ?? standard.postalCodeLabel,
                regionLabel: regionLabels[code] ?? standard.regionLabel,
                lines: lineOrders[code] ?? standard.lines)
            if format != standard { formats[code] = format }
        }
        return formats
    }()

    /// The address's lines in this format; `countryName` ends the address when given.
    public func lines(street: String?, city: String?, province: String?, postalCode: String?, countryName: String?)
        -> [String]
    {
        func value(_ part: AddressPart) -> String {
            let text: String? =
                switch part {
                case .street: street
                case .city: city
                case .province: province
                case .postalCode: postalCode
                case .country: countryName
                }
            return text?.trimmedWhitespace ?? ""
        }
        return lines.compactMap { pieces in
            var line = ""
            for piece in pieces {
                let text = value(piece.part)
                guard !text.isEmpty else { continue }
                line += line.isEmpty ? text : piece.separator + text
            }
            return line.isEmpty ? nil : line
        }
        // A street may span several lines itself.
        .flatMap { $0.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    // MARK: The data

    private enum Order {
        static let postalCodeThenCity: [[AddressLinePiece]] = [
            [.init(.street)], [.init(.postalCode), .init(.city, after: " ")], [.init(.province)], [.init(.country)],
        ]
        /// "Springfield, IL 62701" (United States, Canada).
        static let cityRegionPostalCode: [[AddressLinePiece]] = [
            [.init(.street)], [.init(.city), .init(.province, after: ", "), .init(.postalCode, after: " ")],
            [.init(.country)],
        ]
        /// "SYDNEY NSW 2000" (Australia).
        static let cityRegionPostalCodeSpaced: [[AddressLinePiece]] = [
            [.init(.street)], [.init(.city), .init(.province, after: " "), .init(.postalCode, after: " ")],
            [.init(.country)],
        ]
        /// Town, county and postcode each on their own line (United Kingdom, Ireland).
        static let linePerPart: [[AddressLinePiece]] = [
            [.init(.street)], [.init(.city)], [.init(.province)], [.init(.postalCode)], [.init(.country)],
        ]
        /// "Auckland 1010" (New Zealand), "Mumbai 400001" then the state (India).
        static let cityThenPostalCode: [[AddressLinePiece]] = [
            [.init(.street)], [.init(.city), .init(.postalCode, after: " ")], [.init(.province)], [.init(.country)],
        ]
        /// "00144 Roma RM" (Italy).
        static let postalCodeCityRegion: [[AddressLinePiece]] = [
            [.init(.street)], [.init(.postalCode), .init(.city, after: " "), .init(.province, after: " ")],
            [.init(.country)],
        ]
        /// "06600 Ciudad de México, CDMX" (Mexico).
        static let postalCodeCityCommaRegion: [[AddressLinePiece]] = [
            [.init(.street)], [.init(.postalCode), .init(.city, after: " "), .init(.province, after: ", ")],
            [.init(.country)],
        ]
        /// "São Paulo - SP" then the CEP (Brazil).
        static let cityDashRegionThenPostalCode: [[AddressLinePiece]] = [
            [.init(.street)], [.init(.city), .init(.province, after: " - ")], [.init(.postalCode)], [.init(.country)],
        ]
        /// Postal code first, then prefecture and city, then the street (Japan).
        static let postalCodeFirst: [[AddressLinePiece]] = [
            [.init(.postalCode)], [.init(.province), .init(.city, after: " ")], [.init(.street)], [.init(.country)],
        ]
    }

    private static let postalCodeLabels: [String: String] = [
        "US": "ZIP Code", "GB": "Postcode", "AU": "Postcode", "NZ": "Postcode", "IE": "Postcode", "IN": "PIN Code",
        "IT": "CAP", "DE": "PLZ", "AT": "PLZ", "CH": "PLZ", "BR": "CEP", "PH": "ZIP Code",
    ]

    private static let regionLabels: [String: String] = [
        "US": "State", "AU": "State", "IN": "State", "BR": "State", "MX": "State", "DE": "State", "AT": "State",
        "MY": "State", "NG": "State", "GB": "County", "IE": "County", "CA": "Province", "IT": "Province",
        "ES": "Province", "NL": "Province", "BE": "Province", "CN": "Province", "AR": "Province",
        "ZA": "Province", "PH": "Province", "CH": "Canton", "JP": "Prefecture", "FR": "Region", "NZ": "Region",
    ]

    private static let lineOrders: [String: [[AddressLinePiece]]] = [
        "US": Order.cityRegionPostalCode, "CA": Order.cityRegionPostalCode, "PH": Order.cityRegionPostalCode,
        "AU": Order.cityRegionPostalCodeSpaced, "GB": Order.linePerPart, "IE": Order.linePerPart,
        "NZ": Order.cityThenPostalCode, "IN": Order.cityThenPostalCode, "IT": Order.postalCodeCityRegion,
        "MX": Order.postalCodeCityCommaRegion, "BR": Order.cityDashRegionThenPostalCode, "JP": Order.postalCodeFirst,
    ]
}
