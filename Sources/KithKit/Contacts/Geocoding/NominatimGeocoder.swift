import Foundation
import KithCore

/// A geocoder that asks a Nominatim server (OpenStreetMap's search: nominatim.openstreetmap.org
/// or a self-hosted one) with a structured query. Nominatim's usage policy requires an
/// identifying User-Agent, so one must be given.
public struct NominatimGeocoder: Geocoder {
    public let baseURL: URL
    public let userAgent: String
    private let transport: any HTTPTransport

    public init(baseURL: URL, userAgent: String, transport: any HTTPTransport = URLSessionTransport()) {
        self.baseURL = baseURL
        self.userAgent = userAgent
        self.transport = transport
    }

    public func locate(_ address: PostalAddress) async throws -> Coordinates? {
        var query: [URLQueryItem] = [.init(name: "format", value: "jsonv2"), .init(name: "limit", value: "1")]
        let parts: [(String, String?)] = [
            ("street", address.street?.replacingOccurrences(of: "\n", with: ", ")), ("city", address.city),
            ("state", address.province), ("postalcode", address.postalCode),
        ]
        for (name, value) in parts {
            if let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
                query.append(.init(name: name, value: value))
            }
        }
        if let country = address.countryCode { query.append(.init(name: "countrycodes", value: country.lowercased())) }
        guard query.count > 2 || address.countryCode != nil else { return nil }
        var components = URLComponents(url: baseURL.appendingPathComponent("search"), resolvingAgainstBaseURL: false)!
        components.queryItems = query
        let request = HTTPExchangeRequest(
            method: "GET", url: components.url!, headers: ["User-Agent": userAgent, "Accept": "application/json"])
        let response: HTTPExchangeResponse
        do {
            response = try await transport.send(request)
        } catch let error as KithError {
            throw GeocodingError.unavailable(error.userMessage)
        }
        guard response.status == 200 else { throw GeocodingError.unavailable("status \(response.status)") }
        guard let places = try? JSONDecoder().decode([Place].self, from: response.body) else {
            throw GeocodingError.unavailable("an answer that is not Nominatim's JSON")
        }
        return places.lazy.compactMap { Coordinates(latitude: Double($0.lat), longitude: Double($0.lon)) }.first
    }

    /// Nominatim writes coordinates as strings.
    private struct Place: Decodable {
        let lat: String
        let lon: String
    }
}
