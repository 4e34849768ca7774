import Foundation
import HTTPTypes
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// What Monica's pets API tests assert, Monica's fixed pet categories (and Kith's route listing
/// them), what a pet does with its contact, and that another account never sees one.
@Suite("Monica API: pets")
struct MonicaPetsTests {
    static let structure = [
        "id", "uuid", "object", "name", "pet_category.id", "pet_category.object", "pet_category.name",
        "pet_category.is_common", "account.id", "contact.id", "created_at", "updated_at",
    ]
    static let cat: JSONTree = ["id": 3, "object": "pet_category", "name": "cat", "is_common": true]

    static func pet(_ contact: Int64, category: JSONTree = 3, name: JSONTree = "the name") -> JSONTree {
        ["contact_id": .int(contact), "pet_category_id": category, "name": name]
    }

    @Test(arguments: Engine.available)
    func petsAreListedShownMadeChangedAndDeleted(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            let john = try await me.contact("John")
            let jane = try await me.contact("Jane")
            let created = try await me.post("/api/pets", Self.pet(john))
            #expect(created.status == .created, "\(created.text)")
            expectStructure(created.data, Self.structure)
            expectFragment(created, [("object", "pet"), ("name", "the name"), ("pet_category", Self.cat)])
            #expect(created.data?["contact"]?["id"] == .int(john))
            #expect(created.data?["created_at"] == "2018-01-01T07:00:00Z")
            let pet = try #require(created.dataID)
            let janes = try #require(try await me.post("/api/pets", Self.pet(jane, category: "10", name: nil)).dataID)

            let all = try await me.get("/api/pets")
            #expect(all.status == .ok)
            expectStructure(all.json, Self.structure.map { "data.*.\($0)" })
            #expect(ids(all) == [pet, janes])
            let johns = try await me.get("/api/contacts/\(john)/pets")
            #expect(ids(johns) == [pet])
            expectMissing(johns, [("object", "pet"), ("id", .int(janes))])
            let shown = try await me.get("/api/pets/\(janes)")
            expectStructure(shown.data, Self.structure)
            #expect(shown.data?["name"] == .null)
            #expect(
                shown.data?["pet_category"]
                    == ["id": 10, "object": "pet_category", "name": "small_animal", "is_common": false])
            expectMissing(shown, [("object", "pet"), ("id", .int(pet))])
            expectNotFound(try await me.get("/api/contacts/0/pets"))
            expectNotFound(try await me.get("/api/pets/0"))

            expectDataError(
                try await me.post("/api/pets", ["contact_id": .int(john)]), ["The pet category id field is required."])

            let updated = try await me.put("/api/pets/\(pet)", Self.pet(john, category: 4, name: "Rex"))
            #expect(updated.status == .ok, "\(updated.text)")
            expectStructure(updated.data, Self.structure)
            expectFragment(updated, [("id", .int(pet)), ("name", "Rex")])
            #expect(updated.data?["pet_category"]?["name"] == "dog")
            expectDataError(
                try await me.put("/api/pets/\(pet)", ["contact_id": .int(john)]),
                ["The pet category id field is required."])
            // As Monica: a pet nobody has is not found, before its input is read.
            expectNotFound(try await me.put("/api/pets/999999", Self.pet(john)))
            expectNotFound(try await me.put("/api/pets/999999", [:]))
            // An empty name is none, as Monica's model stores it.
            #expect(try await me.put("/api/pets/\(pet)", Self.pet(john, name: "")).data?["name"] == .null)

            #expect(try await me.delete("/api/pets/\(pet)").json == ["deleted": true, "id": .int(pet)])
            expectNotFound(try await me.get("/api/pets/\(pet)"))
            expectNotFound(try await me.delete("/api/pets/\(pet)"))
            expectNotFound(try await me.delete("/api/pets/0"))
            #expect(ids(try await me.get("/api/pets")) == [janes])
        }
    }

    @Test(arguments: Engine.available)
    func aPetIsOfOneOfMonicasCategories(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let john = try await me.contact("John")
            let pet = try #require(try await me.post("/api/pets", Self.pet(john)).dataID)
            let invalid = "The selected pet category id is invalid."
            for category: JSONTree in [0, 12, -1, "99"] {
                expectDataError(try await me.post("/api/pets", Self.pet(john, category: category)), [invalid])
                expectDataError(try await me.put("/api/pets/\(pet)", Self.pet(john, category: category)), [invalid])
            }
            expectDataError(
                try await me.post("/api/pets", Self.pet(john, category: "cat")),
                ["The pet category id must be an integer."])
            // Every failing field is named, in Monica's order.
            let longName = JSONTree.string(String(repeating: "a", count: 256))
            expectDataError(
                try await me.post("/api/pets", ["pet_category_id": 12, "name": longName]),
                [invalid, "The contact id field is required.", "The name must not be greater than 255 characters."])
            // Nothing refused was written.
            #expect(ids(try await me.get("/api/pets")) == [pet])
            #expect(try await me.get("/api/pets/\(pet)").data?["pet_category"] == Self.cat)

            // Kith's list of the categories, the same for every account, so a client can offer them.
            let categories = try await me.get("/api/petcategories")
            #expect(categories.status == .ok)
            #expect(categories.json.objectValue?.keys == ["data"], "not paginated")
            let names = categories.data?.arrayValue?.compactMap { $0["name"]?.stringValue }
            let monicas = [
                "reptile", "bird", "cat", "dog", "fish", "hamster", "horse", "rabbit", "rat", "small_animal", "other",
            ]
            #expect(names == monicas)
            #expect(categories.data?.arrayValue?.compactMap { $0["id"]?.intValue } == Array(Int64(1)...11))
            let common = categories.data?.arrayValue?.filter { $0["is_common"] == true }.compactMap {
                $0["name"]?.stringValue
            }
            #expect(common == ["cat", "dog", "fish"])
            #expect(categories.data?[2] == Self.cat)
            #expect(try await other.get("/api/petcategories").json == categories.json)
        }
    }

    @Test(arguments: Engine.available)
    func aPetBelongsToItsContact(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let john = try await me.contact("John")
            let jane = try await me.contact("Jane")
            let pet = try #require(try await me.post("/api/pets", Self.pet(john)).dataID)

            // As Monica, an update names the contact, and the pet moves to it.
            let moved = try await me.put("/api/pets/\(pet)", Self.pet(jane))
            #expect(moved.data?["contact"]?["id"] == .int(jane))
            #expect(ids(try await me.get("/api/contacts/\(john)/pets")).isEmpty)
            #expect(ids(try await me.get("/api/contacts/\(jane)/pets")) == [pet])
            // A contact nobody has is not found (Monica looks it up in the account; no `exists` rule).
            expectNotFound(try await me.post("/api/pets", Self.pet(999_999)))

            // Merging Jane into John brings her pets; deleting John takes them.
            #expect(try await me.post("/api/contacts/\(john)/merge", ["contact_id": .int(jane)]).status == .ok)
            #expect(ids(try await me.get("/api/contacts/\(john)/pets")) == [pet])
            #expect(try await me.delete("/api/contacts/\(john)").status == .ok)
            expectNotFound(try await me.get("/api/pets/\(pet)"))
            #expect(try await me.get("/api/pets").json["meta"]?["total"] == 0)
        }
    }

    @Test(arguments: Engine.available)
    func anotherAccountsPetsAndContactsAreNotThere(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let john = try await me.contact("John")
            let pet = try #require(try await me.post("/api/pets", Self.pet(john)).dataID)
            let foreign = try await other.contact("Other")

            expectNotFound(try await other.get("/api/pets/\(pet)"))
            expectNotFound(try await other.get("/api/contacts/\(john)/pets"))
            expectNotFound(try await other.put("/api/pets/\(pet)", Self.pet(foreign)))
            expectNotFound(try await other.delete("/api/pets/\(pet)"))
            #expect(try await other.get("/api/pets").json["meta"]?["total"] == 0)

            // Monica's "bad account": a pet for another account's contact, made or moved there.
            expectNotFound(try await me.post("/api/pets", Self.pet(foreign)))
            expectNotFound(try await me.put("/api/pets/\(pet)", Self.pet(foreign, name: "Moved")))
            let mine = try await me.get("/api/pets/\(pet)")
            #expect(mine.data?["contact"]?["id"] == .int(john) && mine.data?["name"] == "the name")
            #expect(ids(try await me.get("/api/pets")) == [pet])
        }
    }

    @Test(arguments: Engine.available)
    func aChangeAgainstAnOldVersionIsRefused(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let john = try await me.contact("John")
            let made = try await me.post("/api/pets", Self.pet(john))
            let pet = try #require(made.dataID)
            let loaded = try #require(made.headers[.eTag])
            let changed = try await me.call(
                .put, "/api/pets/\(pet)", Self.pet(john, name: "Rex"), headers: [.ifMatch: loaded])
            #expect(changed.status == .ok)
            let stale = try await me.call(
                .put, "/api/pets/\(pet)", Self.pet(john, name: "Felix"), headers: [.ifMatch: loaded])
            #expect(stale.status == .preconditionFailed && stale["error"]?["error_code"] == 43)
            let staleDelete = try await me.call(.delete, "/api/pets/\(pet)", headers: [.ifMatch: loaded])
            #expect(staleDelete.status == .preconditionFailed)
            #expect(try await me.get("/api/pets/\(pet)").data?["name"] == "Rex")
        }
    }
}
