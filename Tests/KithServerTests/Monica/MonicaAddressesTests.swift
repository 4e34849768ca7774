import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// What Monica's `ApiAdressesControllerTest` asserts (422 code 32 for validation, as in 4.x).
@Suite("Monica API: addresses")
struct MonicaAddressesTests {
    static let structure = [
        "id", "object", "name", "street", "city", "province", "postal_code", "latitude", "longitude", "country",
        "account.id", "contact.id", "created_at", "updated_at",
    ]

    @Test(arguments: Engine.available)
    func listsShowsAndPaginatesAddresses(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let contact = try await me.contact("John")
            let first = try await me.post(
                "/api/addresses",
                ["contact_id": .int(contact), "name": "home", "street": "1 Main St", "city": "Springfield"])
            let id = try #require(first.dataID)
            let all = try await me.get("/api/addresses")
            #expect(all.status == .ok)
            expectStructure(all.json, Self.structure.map { "data.*.\($0)" })
            expectFragment(all, [("object", "address"), ("id", .int(id)), ("total", 1), ("current_page", 1)])
            for index in 2...20 {
                _ = try await me.post(
                    "/api/addresses", ["contact_id": .int(contact), "name": .string("place \(index)")])
            }
            expectFragment(
                try await me.get("/api/addresses?limit=1"),
                [("total", 20), ("current_page", 1), ("per_page", 1), ("last_page", 20)])
            expectFragment(try await me.get("/api/addresses?limit=2"), [("total", 20), ("last_page", 10)])
            let ofContact = try await me.get("/api/contacts/\(contact)/addresses")
            expectFragment(ofContact, [("object", "address"), ("id", .int(id)), ("name", "home")])
            expectNotFound(try await me.get("/api/contacts/0/addresses"))
            let shown = try await me.get("/api/addresses/\(id)")
            expectStructure(shown.data, Self.structure)
            expectFragment(shown, [("object", "address"), ("id", .int(id)), ("name", "home"), ("street", "1 Main St")])
            #expect(shown.data?["contact"]?["id"] == .int(contact))
        }
    }

    @Test(arguments: Engine.available)
    func createsUpdatesAndDeletesAddresses(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let contact = try await me.contact("John")
            let created = try await me.post(
                "/api/addresses",
                [
                    "contact_id": .int(contact), "name": "address name", "street": "street", "postal_code": "12345",
                    "country": "FR", "latitude": 48.8559, "longitude": "2.3578",
                ])
            #expect(created.status == .created)
            expectFragment(
                created,
                [
                    ("object", "address"), ("name", "address name"), ("street", "street"), ("postal_code", "12345"),
                    ("country", ["object": "country", "id": "FR", "name": "France", "iso": "FR"]),
                    ("latitude", 48.8559),
                    ("longitude", 2.3578),
                ])
            let id = try #require(created.dataID)
            expectDataError(try await me.post("/api/addresses"), ["The contact id field is required."])
            let foreign = try await other.contact("Other")
            expectNotFound(try await me.post("/api/addresses", ["contact_id": .int(foreign), "name": "x"]))
            expectDataError(
                try await me.post("/api/addresses", ["contact_id": .int(contact)]),
                [
                    "The address is empty: give at least a name, street, city, province, postal code, country or coordinates."
                ])
            expectDataError(
                try await me.post("/api/addresses", ["contact_id": .int(contact), "country": "XX"]),
                ["The country must be an ISO 3166 country code, such as FR or US."])

            let updated = try await me.put(
                "/api/addresses/\(id)", ["contact_id": .int(contact), "name": "address name up", "country": "us"])
            #expect(updated.status == .ok)
            expectFragment(
                updated,
                [
                    ("name", "address name up"),
                    ("country", ["object": "country", "id": "US", "name": "United States", "iso": "US"]),
                    ("postal_code", nil), ("street", nil),
                ])
            expectDataError(try await me.put("/api/addresses/\(id)"), ["The contact id field is required."])
            expectNotFound(try await me.put("/api/addresses/\(id)", ["contact_id": .int(foreign), "name": "x"]))
            let another = try await me.contact("Jane")
            expectNotFound(try await me.put("/api/addresses/\(id)", ["contact_id": .int(another), "name": "x"]))
            #expect(
                try await me.get("/api/addresses/\(id)").data?["name"] == "address name up", "refusals change nothing")

            let deleted = try await me.delete("/api/addresses/\(id)")
            #expect(deleted.json == ["deleted": true, "id": .int(id)])
            expectNotFound(try await me.get("/api/addresses/\(id)"))
            expectDataError(try await me.delete("/api/addresses/0"), ["The selected address id is invalid."])
        }
    }
}
