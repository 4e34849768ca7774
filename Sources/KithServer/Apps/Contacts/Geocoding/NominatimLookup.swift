import AsyncHTTPClient
import Foundation
import KithCore

/// One `/search` to the configured Nominatim server, over the server's outbound HTTP (the food
/// search providers' `OutboundHTTP`: the same User-Agent, body limit and timeouts).
struct NominatimLookup: Sendable {
    let settings: GeocoderSettings
    let http: OutboundHTTP

    init(settings: GeocoderSettings, client: HTTPClient, userAgent: String) {
        self.settings = settings
        http = OutboundHTTP(client: client, provider: "the geocoder", userAgent: userAgent, timeout: settings.timeout)
    }

    /// Where `search` is, or `.notFound`. A geocoder that cannot be reached, is overloaded (429,
    /// 503) or answers something else throws `GeocoderUnavailable`: the job tries again later.
    func answer(_ search: NominatimSearch) async throws -> GeocodeCache.Answer {
        guard let url = search.url(base: settings.baseURL) else {
            throw JobFailure.permanent("the geocoder's URL cannot take a search: \(settings.baseURL)")
        }
        let answer: OutboundHTTP.Answer
        do {
            answer = try await http.send(.GET, url.absoluteString)
        } catch let error as FoodSearchProviderError {
            throw GeocoderUnavailable(reason: "\(error)")
        }
        guard answer.status == 200 else { throw GeocoderUnavailable(reason: "it answered HTTP \(answer.status)") }
        do {
            return try NominatimSearch.firstPlace(in: Data(buffer: answer.body)).map { .found($0) } ?? .notFound
        } catch {
            throw GeocoderUnavailable(reason: "its answer is not Nominatim's JSON")
        }
    }
}

/// The geocoder did not answer usefully this time; retried with the job's backoff.
struct GeocoderUnavailable: Error, CustomStringConvertible {
    let reason: String
    var description: String { "the geocoder is unavailable: \(reason)" }
}
