import Foundation
import Hummingbird
import HummingbirdTesting
import KithCore
import KithKit
import KithTestSupport
import NIOCore
import Testing

/// Directions to an address: its own coordinates, else a Nominatim-style geocoder (here
/// `NominatimStandIn` on loopback, which speaks Nominatim's `/search`), else a clear message.
@Suite("Directions and geocoding")
struct GeocodingTests {
    @Test func anAddressWithCoordinatesNeedsNoGeocoder() async throws {
        let address = PostalAddress(street: "12 rue de Rivoli", city: "Paris", latitude: 48.8559, longitude: 2.3578)
        let directions = try await Directions.to(address, contactName: "John Doe", geocoder: nil)
        #expect(!directions.geocoded)
        #expect(directions.appleMaps.absoluteString == "https://maps.apple.com/?daddr=48.8559,2.3578&q=John%20Doe")
        #expect(directions.openStreetMap.absoluteString.contains("to=John%20Doe"))
    }

    @Test func withoutCoordinatesOrGeocoderTheMessageSaysWhatToDo() async throws {
        let error = await #expect(throws: GeocodingError.notConfigured) {
            _ = try await Directions.to(
                PostalAddress(city: "Paris", latitude: 0, longitude: 0), contactName: "John", geocoder: nil)
        }
        #expect(error?.userMessage.contains("no geocoder is set up") == true)
    }

    @Test func theGeocoderFindsTheAddressAndTheContactNameLabelsIt() async throws {
        try await NominatimStandIn.run { nominatim, url in
            let geocoder = NominatimGeocoder(baseURL: url, userAgent: "Kith tests (kith@example.com)")
            let address = PostalAddress(
                street: "Place de l'Hôtel de Ville", city: "Paris", postalCode: "75004", countryCode: "FR")
            let directions = try await Directions.to(address, contactName: "Ada Lovelace", geocoder: geocoder)
            #expect(directions.geocoded && directions.destination == Coordinates(latitude: 48.8566, longitude: 2.3522))
            #expect(
                directions.appleMaps.absoluteString == "https://maps.apple.com/?daddr=48.8566,2.3522&q=Ada%20Lovelace")
            let asked = try #require(nominatim.requests.last)
            #expect(asked.query["street"] == "Place de l'Hôtel de Ville" && asked.query["postalcode"] == "75004")
            #expect(asked.query["format"] == "jsonv2" && asked.userAgent == "Kith tests (kith@example.com)")

            await #expect(throws: GeocodingError.notFound) {
                _ = try await Directions.to(PostalAddress(city: "Atlantis"), contactName: "Ada", geocoder: geocoder)
            }
        }
        let down = NominatimGeocoder(
            baseURL: URL(string: "http://127.0.0.1:\(try closedLoopbackPort())")!, userAgent: "Kith tests")
        let error = await #expect(throws: GeocodingError.self) {
            _ = try await down.locate(PostalAddress(city: "Paris"))
        }
        #expect(error?.isRetryable == true)
    }
}
