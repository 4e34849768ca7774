import Foundation

/// A point on the Earth in WGS 84 degrees, as a phone's location service reports it.
public struct GeoPoint: Sendable, Hashable, Codable {
    public let latitude: Double
    public let longitude: Double

    public static let latitudes: ClosedRange<Double> = -90...90
    public static let longitudes: ClosedRange<Double> = -180...180

    /// Nil unless both are finite and in range.
    public init?(latitude: Double, longitude: Double) {
        guard Self.latitudes.contains(latitude), Self.longitudes.contains(longitude) else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The mean radius of the Earth (IUGG), in metres.
    public static let earthRadius = 6_371_008.8

    /// The great-circle distance to `other` in metres (haversine). On the scale of a house or a
    /// street, as movement alerts need, its error against the ellipsoid is well under 0.5 %.
    public func distance(to other: GeoPoint) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (other.latitude - latitude) * radians
        let dLongitude = (other.longitude - longitude) * radians
        let a =
            sin(dLatitude / 2) * sin(dLatitude / 2)
            + cos(latitude * radians) * cos(other.latitude * radians) * sin(dLongitude / 2) * sin(dLongitude / 2)
        return 2 * Self.earthRadius * asin(min(1, sqrt(a)))
    }
}
