import Foundation

/// Nominatim's structured `/search` for a postal address (OpenStreetMap's geocoder, public or
/// self-hosted): the server's geocoding job and KithKit's `NominatimGeocoder` ask the same way
/// and read the answer the same way.
public struct NominatimSearch: Sendable, Equatable {
    /// The address's parts as Nominatim names them, in a fixed order; only those given.
    public let parts: [Part]

    public struct Part: Sendable, Equatable {
        public let name: String
        public let value: String
    }

    /// Nil when the address holds nothing to search for (only a label, or only coordinates).
    public init?(_ address: PostalAddress) {
        let given: [(String, String?)] = [
            ("street", address.street?.replacingOccurrences(of: "\n", with: ", ")), ("city", address.city),
            ("state", address.province), ("postalcode", address.postalCode),
            ("countrycodes", address.countryCode?.lowercased()),
        ]
        parts = given.compactMap { name, value in
            guard let value = value?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
            return Part(name: name, value: value)
        }
        if parts.isEmpty { return nil }
    }

    /// The query's parameters, Nominatim's JSON and one place at most included.
    public var queryItems: [URLQueryItem] {
        [URLQueryItem(name: "format", value: "jsonv2"), URLQueryItem(name: "limit", value: "1")]
            + parts.map { URLQueryItem(name: $0.name, value: $0.value) }
    }

    /// `base`'s `/search` with this query.
    public func url(base: URL) -> URL? {
        guard var components = URLComponents(url: base.appendingPathComponent("search"), resolvingAgainstBaseURL: false)
        else { return nil }
        components.queryItems = queryItems
        return components.url
    }

    /// The same search however it was typed: parts in lower case, runs of spaces as one. Two
    /// addresses with the same key get the same answer from Nominatim, so one answer serves both.
    public var normalizedKey: String {
        parts.map { part in
            let words = part.value.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
            return "\(part.name)=\(words)"
        }.joined(separator: "&")
    }

    /// The first place of a `/search` answer (`[{"lat":"48.85","lon":"2.35",…}]`; Nominatim writes
    /// coordinates as strings), nil for `[]`; throws when the body is not such a list.
    public static func firstPlace(in body: Data) throws -> Coordinates? {
        struct Place: Decodable {
            let lat: String
            let lon: String
        }
        let places = try JSONDecoder().decode([Place].self, from: body)
        return places.lazy.compactMap { Coordinates(latitude: Double($0.lat), longitude: Double($0.lon)) }.first
    }
}
