import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// What Monica's relationship, relationship type and group API tests assert.
@Suite("Monica API: relationships")
struct MonicaRelationshipsTests {
    static func type(_ me: MonicaUser, _ name: String) async throws -> Int64 {
        let types = try await me.get("/api/relationshiptypes?limit=100")
        return try #require(types.data?.arrayValue?.first { $0["name"] == .string(name) }?["id"]?.intValue)
    }

    @Test(arguments: Engine.available)
    func creatingARelationshipCreatesItsReverse(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let alice = try await me.contact("Alice")
            let bob = try await me.contact("Bob")
            let uncle = try await Self.type(me, "uncle")
            let nephew = try await Self.type(me, "nephew")
            expectDataError(
                try await me.post(
                    "/api/relationships",
                    ["contact_is": "a", "relationship_type_id": .int(uncle), "of_contact": .int(bob)]),
                ["The contact is must be an integer."])
            expectDataError(
                try await me.post(
                    "/api/relationships",
                    ["contact_is": .int(alice), "relationship_type_id": "a", "of_contact": .int(bob)]),
                ["The relationship type id must be an integer."])
            let foreign = try await other.contact("Other")
            expectNotFound(
                try await me.post(
                    "/api/relationships",
                    ["contact_is": .int(alice), "relationship_type_id": .int(uncle), "of_contact": .int(foreign)]))
            let theirUncle = try await Self.type(other, "uncle")
            expectNotFound(
                try await me.post(
                    "/api/relationships",
                    ["contact_is": .int(alice), "relationship_type_id": .int(theirUncle), "of_contact": .int(bob)]))

            // No relationship yet: each of the four groups is there, empty (a list, not null).
            let none = try await me.get("/api/contacts/\(alice)").data?["information"]?["relationships"]
            for group in ["love", "family", "friend", "work"] {
                #expect(none?[group]?["total"] == 0)
                #expect(none?[group]?["contacts"]?.arrayValue?.isEmpty == true, "\(group)")
            }

            let created = try await me.post(
                "/api/relationships",
                ["contact_is": .int(alice), "relationship_type_id": .int(uncle), "of_contact": .int(bob)])
            #expect(created.status == .created)
            expectStructure(
                created.data,
                ["id", "object", "contact_is.id", "relationship_type.name", "of_contact.id", "account.id"])
            let id = try #require(created.dataID)
            let ofBob = try await me.get("/api/contacts/\(bob)/relationships")
            #expect(ofBob["meta"] == nil, "not paginated")
            #expect(ofBob.data?[0]?["relationship_type"]?["id"] == .int(nephew))
            #expect(ofBob.data?[0]?["of_contact"]?["id"] == .int(alice))
            let family = try await me.get("/api/contacts/\(alice)").data?["information"]?["relationships"]?["family"]
            #expect(family?["total"] == 1)
            #expect(family?["contacts"]?[0]?["relationship"]?["name"] == "uncle")
            #expect(family?["contacts"]?[0]?["contact"]?["id"] == .int(bob))
            expectFragment(
                try await me.get("/api/relationships/\(id)"), [("id", .int(id)), ("object", "relationship")])

            let godfather = try await Self.type(me, "godfather")
            let changed = try await me.put("/api/relationships/\(id)", ["relationship_type_id": .int(godfather)])
            #expect(changed.data?["relationship_type"]?["name"] == "godfather")
            #expect(
                try await me.get("/api/contacts/\(bob)/relationships").data?[0]?["relationship_type"]?["name"]
                    == "godson")
            expectDataError(
                try await me.put("/api/relationships/\(id)", ["relationship_type_id": "a"]),
                [
                    "The relationship type id must be an integer."
                ])
            expectNotFound(try await me.put("/api/relationships/\(id)", ["relationship_type_id": .int(theirUncle)]))

            #expect(
                try await me.delete("/api/relationships/\(id)").json == ["deleted": true, "id": .string(String(id))])
            #expect(try await me.get("/api/contacts/\(bob)/relationships").data == [], "the reverse went too")
            expectDataError(try await me.delete("/api/relationships/0"), ["The selected relationship id is invalid."])
            expectDataError(try await me.delete("/api/relationships/x"), ["The relationship id must be an integer."])
        }
    }

    @Test(arguments: Engine.available)
    func typesAndGroups(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let types = try await me.get("/api/relationshiptypes?limit=100")
            #expect(types.data?.arrayValue?.count == 27)
            let father = try await Self.type(me, "godfather")
            let shown = try await me.get("/api/relationshiptypes/\(father)")
            expectFragment(
                shown,
                [
                    ("object", "relationshiptype"), ("name", "godfather"), ("name_reverse_relationship", "godson"),
                    ("delible", false),
                ])
            let groups = try await me.get("/api/relationshiptypegroups")
            #expect(
                groups.data?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["love", "family", "friend", "work"])
            let love = try #require(groups.data?[0]?["id"]?.intValue)
            expectFragment(
                try await me.get("/api/relationshiptypegroups/\(love)"),
                [("object", "relationshiptypegroup"), ("name", "love"), ("delible", false)])
            expectNotFound(try await other.get("/api/relationshiptypegroups/\(love)"))
            expectNotFound(try await other.get("/api/relationshiptypes/\(father)"))
        }
    }
}
