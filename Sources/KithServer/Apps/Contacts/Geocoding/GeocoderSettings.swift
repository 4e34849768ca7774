import Foundation

/// The Nominatim server that finds where contacts' addresses are (`KITH_GEOCODER_URL`):
/// OpenStreetMap's public one unless another is named; `off` turns geocoding off (no job is
/// queued, and an address has a map only with typed coordinates). docs/contacts-web.md.
public struct GeocoderSettings: Sendable, Equatable {
    /// `https://nominatim.openstreetmap.org`, or a self-hosted Nominatim.
    public let baseURL: URL
    /// How long one request may take before the job tries again later.
    public var timeout: Duration = .seconds(10)
    /// The shortest time between two requests to the geocoder, across the server: the public
    /// server's usage policy allows one a second.
    public var interval: Duration = .seconds(1)

    public static let openStreetMap = try! GeocoderSettings("https://nominatim.openstreetmap.org")

    public init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty, url.user == nil, url.password == nil
        else {
            throw ConfigError(
                "KITH_GEOCODER_URL must be a Nominatim server's http(s) URL such as https://nominatim.openstreetmap.org, or off (got \"\(text)\")"
            )
        }
        baseURL = url
    }

    /// The setting's value: nil for `off`/`none`, the public server for an empty one.
    public static func setting(_ text: String) throws -> GeocoderSettings? {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "off", "none": nil
        case "": .openStreetMap
        default: try GeocoderSettings(text)
        }
    }
}
