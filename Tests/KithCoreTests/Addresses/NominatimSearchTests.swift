import Foundation
import KithCore
import Testing

/// The search both the server's geocoding job and KithKit's geocoder send, and the key the
/// server's cache keeps answers by.
@Suite("Nominatim search")
struct NominatimSearchTests {
    @Test func anAddressIsSearchedByItsPartsAndItsCountry() throws {
        let search = try #require(
            NominatimSearch(
                PostalAddress(
                    label: "Home", street: "Flat 2\n10 Downing Street", city: "London", postalCode: "SW1A 2AA",
                    countryCode: "GB")))
        let url = try #require(search.url(base: URL(string: "https://nominatim.example/osm")!))
        #expect(
            url.absoluteString
                == "https://nominatim.example/osm/search?format=jsonv2&limit=1&street=Flat%202,%2010%20Downing%20Street&city=London&postalcode=SW1A%202AA&countrycodes=gb"
        )
    }

    @Test func theSameAddressTypedDifferentlyHasOneKey() throws {
        let one = try #require(
            NominatimSearch(PostalAddress(street: "1 Rue  de Rivoli ", city: "Paris", countryCode: "FR")))
        let other = try #require(
            NominatimSearch(PostalAddress(street: "1 rue de rivoli", city: "PARIS", countryCode: "fr")))
        #expect(one.normalizedKey == other.normalizedKey)
        #expect(one.normalizedKey == "street=1 rue de rivoli&city=paris&countrycodes=fr")
        let elsewhere = try #require(NominatimSearch(PostalAddress(street: "1 rue de Rivoli", city: "Lyon")))
        #expect(elsewhere.normalizedKey != one.normalizedKey)
    }

    @Test func onlyALabelOrCoordinatesIsNothingToSearch() {
        #expect(NominatimSearch(PostalAddress(label: "Home")) == nil)
        #expect(NominatimSearch(PostalAddress(street: "  ", latitude: 1, longitude: 2)) == nil)
    }

    @Test func theAnswersFirstPlaceIsRead() throws {
        let found = try NominatimSearch.firstPlace(
            in: Data(#"[{"lat":"48.8566","lon":"2.3522"},{"lat":"1","lon":"1"}]"#.utf8))
        #expect(found == Coordinates(latitude: 48.8566, longitude: 2.3522))
        #expect(try NominatimSearch.firstPlace(in: Data("[]".utf8)) == nil)
        #expect(throws: (any Error).self) { _ = try NominatimSearch.firstPlace(in: Data(#"{"error":"x"}"#.utf8)) }
    }
}
