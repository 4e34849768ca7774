import Foundation
import KithCore
import Testing

/// Haversine distances against points whose distance is known.
@Suite("Geo points")
struct GeoPointTests {
    static func point(_ latitude: Double, _ longitude: Double) -> GeoPoint { GeoPoint(latitude: latitude, longitude: longitude)! }

    @Test func distancesMatchKnownOnes() {
        // One degree of latitude (any meridian) and one of longitude on the equator: 2πR/360.
        let degree = 2 * Double.pi * GeoPoint.earthRadius / 360
        #expect(abs(Self.point(0, 0).distance(to: Self.point(1, 0)) - degree) < 0.001)
        #expect(abs(Self.point(0, 0).distance(to: Self.point(0, 1)) - degree) < 0.001)
        // At 60° north a degree of longitude is half as long (cos 60° = 0.5), along the parallel
        // the great circle is a little shorter than that: within 0.01 %.
        let parallel = Self.point(60, 10).distance(to: Self.point(60, 11))
        #expect(abs(parallel - degree / 2) / (degree / 2) < 0.0001)
        // Paris (Notre-Dame) to London (St Paul's): 342.5 km on the sphere.
        let paris = Self.point(48.852968, 2.349902)
        let london = Self.point(51.513845, -0.098351)
        #expect(abs(paris.distance(to: london) - 342_500) < 1_000)
        // Antipodes: half the circumference, without NaN from rounding.
        #expect(abs(Self.point(0, 0).distance(to: Self.point(0, 180)) - Double.pi * GeoPoint.earthRadius) < 0.001)
        #expect(Self.point(45, 45).distance(to: Self.point(45, 45)) == 0)
    }

    @Test func metresNearbyAreMetres() {
        // 20 m due north is 20 / (πR/180) degrees of latitude.
        let here = Self.point(52.520008, 13.404954)
        let north = Self.point(52.520008 + 20 / (Double.pi * GeoPoint.earthRadius / 180), 13.404954)
        #expect(abs(here.distance(to: north) - 20) < 0.001)
    }

    @Test func pointsOutsideTheGlobeAreRefused() {
        #expect(GeoPoint(latitude: 91, longitude: 0) == nil)
        #expect(GeoPoint(latitude: 0, longitude: -180.5) == nil)
        #expect(GeoPoint(latitude: .nan, longitude: 0) == nil)
        #expect(GeoPoint(latitude: 0, longitude: .infinity) == nil)
    }
}
