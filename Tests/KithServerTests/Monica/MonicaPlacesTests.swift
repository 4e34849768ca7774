import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// What Monica's `ApiPlaceControllerTest` asserts, and Kith's checks a place shares with an
/// address (not empty, an ISO 3166 country, coordinates on the globe, a decimal comma).
@Suite("Monica API: places")
struct MonicaPlacesTests {
    static let structure = [
        "id", "object", "street", "city", "province", "postal_code", "latitude", "longitude", "country", "account.id",
        "created_at", "updated_at",
    ]
    static let empty =
        "The place is empty: give at least a street, city, province, postal code, country or coordinates."

    @Test(arguments: Engine.available)
    func placesAreListedShownAndPaginated(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, other, _ in
            for index in 1...10 {
                let made = try await me.post("/api/places", ["city": .string("City \(index)")])
                #expect(made.status == .created, "\(made.text)")
            }
            let all = try await me.get("/api/places")
            #expect(all.status == .ok)
            expectStructure(all.json, Self.structure.map { "data.*.\($0)" })
            expectFragment(
                try await me.get("/api/places?limit=1"),
                [("total", 10), ("current_page", 1), ("per_page", 1), ("last_page", 10)])
            expectFragment(
                try await me.get("/api/places?limit=2"),
                [("total", 10), ("current_page", 1), ("per_page", 2), ("last_page", 5)])

            let place = try #require(ids(all).first)
            let shown = try await me.get("/api/places/\(place)")
            #expect(shown.status == .ok)
            expectStructure(shown.data, Self.structure)
            expectFragment(shown, [("object", "place"), ("id", .int(place)), ("city", "City 1")])
            let keys = shown.data?.objectValue?.members.map(\.key) ?? []
            #expect(!keys.contains("uuid") && !keys.contains("url"), "Monica's place has neither")
            expectNotFound(try await me.get("/api/places/0"))

            expectNotFound(try await other.get("/api/places/\(place)"))
            #expect(try await other.get("/api/places").json["meta"]?["total"] == 0)
        }
    }

    @Test(arguments: Engine.available)
    func placesAreMadeChangedAndDeleted(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, other, _ in
            let created = try await me.post("/api/places", ["city": "New York"])
            #expect(created.status == .created)
            expectStructure(created.data, Self.structure)
            let place = try #require(created.dataID)
            expectFragment(
                created,
                [("object", "place"), ("id", .int(place)), ("city", "New York"), ("latitude", nil), ("country", nil)])
            #expect(created.data?["created_at"] == "2018-01-01T07:00:00Z")

            let full = try await me.post(
                "/api/places",
                [
                    "street": "1 rue de Rivoli", "postal_code": "75001", "country": "fr", "latitude": "48,8606",
                    "longitude": 2.3376,
                ])
            #expect(full.status == .created)
            expectFragment(
                full,
                [
                    ("street", "1 rue de Rivoli"), ("postal_code", "75001"),
                    ("country", ["object": "country", "id": "FR", "name": "France", "iso": "FR"]),
                    ("latitude", 48.8606), ("longitude", 2.3376),
                ])

            let updated = try await me.put("/api/places/\(place)", ["city": "Boston", "province": "MA"])
            #expect(updated.status == .ok)
            #expect(updated.dataID == place)
            expectStructure(updated.data, Self.structure)
            expectFragment(
                updated,
                [("object", "place"), ("id", .int(place)), ("city", "Boston"), ("province", "MA"), ("latitude", nil)])
            // Monica's update replaces every field: what is not sent is emptied.
            let replaced = try await me.put("/api/places/\(place)", ["street": "Main St", "country": "US"])
            expectFragment(
                replaced,
                [
                    ("street", "Main St"), ("city", nil), ("province", nil),
                    ("country", ["object": "country", "id": "US", "name": "United States", "iso": "US"]),
                ])

            expectDataError(try await me.post("/api/places"), [Self.empty])
            expectDataError(try await me.put("/api/places/\(place)", ["city": " "]), [Self.empty])
            expectDataError(
                try await me.post("/api/places", ["country": "XX"]),
                ["The country must be an ISO 3166 country code, such as FR or US."])
            // Kith keeps two-letter codes only, as for addresses.
            expectDataError(
                try await me.post("/api/places", ["country": "FRA"]),
                ["The country must be an ISO 3166 country code, such as FR or US."])
            expectDataError(
                try await me.post("/api/places", ["country": "France"]),
                ["The country must not be greater than 3 characters."])
            expectDataError(
                try await me.post("/api/places", ["city": "Nowhere", "latitude": 91, "longitude": "-181"]),
                ["The latitude must be between -90 and 90.", "The longitude must be between -180 and 180."])
            expectDataError(
                try await me.post("/api/places", ["city": "Paris", "latitude": "48,85,66"]),
                ["The latitude must be a number."])
            expectDataError(
                try await me.put("/api/places/999999", ["city": "Nowhere"]), ["The selected place id is invalid."])
            expectNotFound(try await other.put("/api/places/\(place)", ["city": "New York"]))
            expectNotFound(try await other.delete("/api/places/\(place)"))
            #expect(try await me.get("/api/places").json["meta"]?["total"] == 2, "refusals make nothing")
            #expect(try await me.get("/api/places/\(place)").data?["street"] == "Main St", "refusals change nothing")

            let deleted = try await me.delete("/api/places/\(place)")
            #expect(deleted.status == .ok)
            #expect(deleted.json == ["deleted": true, "id": .int(place)])
            expectNotFound(try await me.get("/api/places/\(place)"))
            expectDataError(try await me.delete("/api/places/0"), ["The selected place id is invalid."])
            #expect(ids(try await me.get("/api/places")).count == 1)
        }
    }
}
