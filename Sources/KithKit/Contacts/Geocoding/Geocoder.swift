import Foundation
import KithCore

/// Finds where an address is, for directions and maps when Monica has no coordinates for it.
/// Pluggable: `NominatimGeocoder` speaks OpenStreetMap's Nominatim API
/// (public or self-hosted); an app may bring its own (Core Location on Apple platforms).
public protocol Geocoder: Sendable {
    /// The address's coordinates, or nil when the geocoder knows no such place.
    func locate(_ address: PostalAddress) async throws -> Coordinates?
}

/// Why directions could not be given (`UserFacingError`, as every KithKit error).
public enum GeocodingError: UserFacingError, Equatable {
    /// No geocoder is set up and the address has no coordinates.
    case notConfigured
    /// The geocoder found no place for the address.
    case notFound
    /// The geocoder could not be reached or answered an error.
    case unavailable(String)

    public var userMessage: String {
        switch self {
        case .notConfigured:
            "This address has no map location, and no geocoder is set up to find it. Add its latitude and longitude, or configure a geocoder."
        case .notFound: "This address could not be found on the map. Check it, or add its latitude and longitude."
        case .unavailable(let reason): "The geocoder could not be reached (\(reason)). Try again later."
        }
    }

    public var kind: ErrorKind {
        switch self {
        case .notConfigured: .invalid
        case .notFound: .notFound
        case .unavailable: .unreachable
        }
    }

    public var identifier: String {
        switch self {
        case .notConfigured: "no_geocoder"
        case .notFound: "not_on_map"
        case .unavailable: "geocoder_unavailable"
        }
    }
}

/// Where to go and how to get there: map links that carry the contact's name as the label.
public struct Directions: Sendable, Equatable {
    public var destination: Coordinates
    public var label: String
    /// Whether the coordinates came from a geocoder (nobody typed them): this device's, or the
    /// server's (`locatedByServer`).
    public var geocoded: Bool
    /// Whether the server found the coordinates from the address's text.
    public var locatedByServer = false

    public var appleMaps: URL { MapLinks.appleMapsDirections(to: destination, label: label) }
    public var openStreetMap: URL { MapLinks.openStreetMapDirections(to: destination, label: label) }

    /// Directions to `address`, labelled `contactName`: its own coordinates when it has them
    /// ((0, 0) counts as none), else the geocoder's answer; with neither, a clear error.
    public static func to(
        _ address: PostalAddress, contactName: String, geocoder: (any Geocoder)?
    ) async throws -> Directions {
        if let point = address.coordinates {
            return Directions(destination: point, label: contactName, geocoded: false)
        }
        guard let geocoder else { throw GeocodingError.notConfigured }
        guard let point = try await geocoder.locate(address) else { throw GeocodingError.notFound }
        return Directions(destination: point, label: contactName, geocoded: true)
    }

    /// Directions to an address read from the server: the coordinates it has (typed, or found
    /// by a Kith server from the address's text) before asking this device's geocoder.
    public static func to(
        _ address: MonicaAddress, contactName: String, geocoder: (any Geocoder)?
    ) async throws -> Directions {
        var directions = try await to(address.postal, contactName: contactName, geocoder: geocoder)
        if address.isLocatedByServer {
            directions.geocoded = true
            directions.locatedByServer = true
        }
        return directions
    }
}
