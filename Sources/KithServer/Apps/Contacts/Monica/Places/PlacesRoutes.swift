import Foundation
import Hummingbird
import KithCore

/// `/api/places`: the account's places.
struct PlacesRoutes {
    /// A place's fields are an address's but its name and contact, with Monica's rules for them
    /// (the same) and Kith's bounds on the coordinates.
    static let rules = AddressesRoutes.rules.filter {
        ["street", "city", "province", "postal_code", "country", "latitude", "longitude"].contains($0.name)
    }

    let repository: PlaceRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.index(
            "places", load: { try await repository.page(account: $0.accountID, $1) }, present: PlacePresenter.present)
        routes.show(
            "places", load: { try await repository.find(account: $0.accountID, id: $1) },
            present: PlacePresenter.present)
        routes.post("places") { call in try await save(call, id: nil) }
        routes.put("places/{id}") { call in try await save(call, id: try call.id()) }
        routes.destroy("places", attribute: "place id", answerText: false) {
            try await repository.delete(account: $0.accountID, id: $1, ifMatch: try $0.ifMatch())
        }
    }

    /// Create, or replace every field of an existing place (Monica's update resets what is not sent).
    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        let input = AddressesRoutes.readingDecimalCommas(try await call.input())
        let valid = try MonicaValidator.validate(input, Self.rules)
        let place = PostalAddress(
            street: valid.string("street"), city: valid.string("city"), province: valid.string("province"),
            postalCode: valid.string("postal_code"), countryCode: try CountryInput.code(valid),
            latitude: valid.double("latitude"), longitude: valid.double("longitude"))
        // As an address: a place with nothing in it is no place (Monica stored it).
        guard !place.isEmpty else {
            throw MonicaError.invalid(
                "The place is empty: give at least a street, city, province, postal code, country or coordinates.")
        }
        let saved = try await repository.save(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), place, now: call.now)
        return MonicaResponse.data(
            PlacePresenter.present(saved, call.presentation), status: id == nil ? .created : .ok, tag: EntityTag(saved))
    }
}
