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
        guard let search = NominatimSearch(address), let url = search.url(base: baseURL) else { return nil }
        let request = HTTPExchangeRequest(
            method: "GET", url: url, headers: ["User-Agent": userAgent, "Accept": "application/json"])
        let response: HTTPExchangeResponse
        do {
            response = try await transport.send(request)
        } catch let error as KithError {
            throw GeocodingError.unavailable(error.userMessage)
        }
        guard response.status == 200 else { throw GeocodingError.unavailable("status \(response.status)") }
        do {
            return try NominatimSearch.firstPlace(in: response.body)
        } catch {
            throw GeocodingError.unavailable("an answer that is not Nominatim's JSON")
        }
    }
}
