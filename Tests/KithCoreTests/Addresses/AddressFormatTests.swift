import Foundation
import KithCore
import Testing

@Suite("Address formats by country")
struct AddressFormatTests {
    @Test func formLabelsFollowTheCountry() {
        let postal = [
            "US": "ZIP Code", "GB": "Postcode", "AU": "Postcode", "NZ": "Postcode", "IE": "Postcode",
            "IN": "PIN Code", "IT": "CAP", "DE": "PLZ", "AT": "PLZ", "CH": "PLZ", "FR": "Postal Code",
            "SE": "Postal Code",
        ]
        for (code, label) in postal { #expect(AddressFormat.forCountry(code).postalCodeLabel == label, "\(code)") }
        #expect(AddressFormat.forCountry("us").regionLabel == "State")
        #expect(AddressFormat.forCountry("AU").regionLabel == "State")
        #expect(AddressFormat.forCountry("GB").regionLabel == "County")
        #expect(AddressFormat.forCountry("CA").regionLabel == "Province")
        #expect(AddressFormat.forCountry(nil) == .standard)
        #expect(AddressFormat.forCountry("ZZ") == .standard)
    }

    @Test func everyListedCountryIsAnISOCountryAndDiffersFromStandard() {
        for (code, format) in AddressFormat.allCountries {
            #expect(ISOCountries.names[code] != nil, "\(code)")
            #expect(format != .standard)
        }
        #expect(ISOCountries.names.count == 249)
        #expect(ISOCountries.code(" fr ") == "FR")
        #expect(ISOCountries.code("XK") == nil)
    }

    @Test func linesFollowTheCountrysOrder() {
        let us = PostalAddress(
            street: "1600 Amphitheatre Pkwy", city: "Mountain View", province: "CA",
            postalCode: "94043", countryCode: "US")
        #expect(us.lines == ["1600 Amphitheatre Pkwy", "Mountain View, CA 94043", "United States"])
        let france = PostalAddress(street: "12 rue de Rivoli", city: "Paris", postalCode: "75004", countryCode: "FR")
        #expect(france.formatted == "12 rue de Rivoli\n75004 Paris\nFrance")
        let uk = PostalAddress(street: "10 Downing Street", city: "London", postalCode: "SW1A 2AA", countryCode: "GB")
        #expect(uk.lines == ["10 Downing Street", "London", "SW1A 2AA", "United Kingdom"])
        let japan = PostalAddress(
            street: "1-1 Chiyoda", city: "Chiyoda-ku", province: "Tokyo", postalCode: "100-8111",
            countryCode: "JP")
        #expect(japan.lines == ["100-8111", "Tokyo Chiyoda-ku", "1-1 Chiyoda", "Japan"])
    }

    @Test func missingPartsLeaveNoStraySeparatorsOrBlankLines() {
        let noCity = PostalAddress(province: "IL", postalCode: "62701", countryCode: "US")
        #expect(noCity.lines == ["IL 62701", "United States"])
        let cityOnly = PostalAddress(city: "  Springfield ", countryCode: "US", countryName: "USA")
        #expect(cityOnly.lines == ["Springfield", "USA"])
        let twoLineStreet = PostalAddress(street: "Flat 2\n\n3 High Street", city: "Bath", countryCode: "GB")
        #expect(twoLineStreet.lines == ["Flat 2", "3 High Street", "Bath", "United Kingdom"])
        #expect(PostalAddress(label: "Home").lines.isEmpty)
    }

    @Test func anAddressWithNothingInItIsEmpty() {
        #expect(PostalAddress().isEmpty)
        #expect(PostalAddress(label: " ", street: "\n", city: "").isEmpty)
        #expect(!PostalAddress(label: "Home").isEmpty)
        #expect(!PostalAddress(latitude: 1, longitude: 2).isEmpty)
    }

    @Test func zeroZeroAndOutOfRangeCoordinatesCountAsMissing() {
        #expect(PostalAddress(latitude: 0, longitude: 0).coordinates == nil)
        #expect(PostalAddress(latitude: 48.8, longitude: nil).coordinates == nil)
        #expect(PostalAddress(latitude: 91, longitude: 2).coordinates == nil)
        #expect(PostalAddress(latitude: 0, longitude: 2.35).coordinates == Coordinates(latitude: 0, longitude: 2.35))
    }

    @Test func mapLinksCarryTheContactsNameAsTheDestination() {
        let point = Coordinates(latitude: 48.8559, longitude: 2.3578)
        #expect(
            MapLinks.appleMapsDirections(to: point, label: "Ada Lovelace").absoluteString
                == "https://maps.apple.com/?daddr=48.8559,2.3578&q=Ada%20Lovelace")
        #expect(
            MapLinks.appleMaps(point, label: "Zoë & Max").absoluteString
                == "https://maps.apple.com/?ll=48.8559,2.3578&q=Zo%C3%AB%20%26%20Max")
        #expect(
            MapLinks.openStreetMapDirections(to: point, label: "Ada+Lovelace").absoluteString
                == "https://www.openstreetmap.org/directions?route=%3B48.8559,2.3578&to=Ada%2BLovelace")
        #expect(
            MapLinks.openStreetMap(point).absoluteString
                == "https://www.openstreetmap.org/?mlat=48.8559&mlon=2.3578#map=16/48.8559/2.3578")
    }
}
