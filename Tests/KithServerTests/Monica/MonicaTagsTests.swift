import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// What Monica's `ApiTagControllerTest`, `ApiContactTagControllerTest`, the contact field tests and
/// `ApiGenderControllerTest` assert.
@Suite("Monica API: tags, contact fields, genders")
struct MonicaTagsTests {
    static let tagStructure = ["id", "object", "name", "name_slug", "account.id", "created_at", "updated_at"]

    @Test(arguments: Engine.available)
    func tagsCrud(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let created = try await me.post("/api/tags", ["name": "the tag"])
            #expect(created.status == .created)
            expectStructure(created.data, Self.tagStructure)
            expectFragment(created, [("object", "tag"), ("name", "the tag"), ("name_slug", "the-tag")])
            let id = try #require(created.dataID)
            let second = try #require(try await me.post("/api/tags", ["name": "Café Crème"]).dataID)
            let all = try await me.get("/api/tags")
            expectStructure(all.json, Self.tagStructure.map { "data.*.\($0)" })
            #expect(ids(all) == [id, second])
            expectFragment(try await me.get("/api/tags/\(second)"), [("name_slug", "cafe-creme")])
            expectNotFound(try await me.get("/api/tags/0"))
            expectDataError(try await me.post("/api/tags"), ["The name field is required."])
            expectDataError(
                try await me.post("/api/tags", ["name": "the tag"]), ["A tag named \"the tag\" already exists."])

            let renamed = try await me.put("/api/tags/\(id)", ["name": "renamed"])
            #expect(renamed.status == .ok)
            expectFragment(renamed, [("id", .int(id)), ("name", "renamed")])
            expectNotFound(try await other.put("/api/tags/\(id)", ["name": "mine"]))

            let contact = try await me.contact("John")
            _ = try await me.post("/api/contacts/\(contact)/setTags", ["tags": ["renamed"]])
            let deleted = try await me.delete("/api/tags/\(id)")
            #expect(deleted.json == ["deleted": true, "id": .string(String(id))])
            #expect(try await me.get("/api/contacts/\(contact)").data?["tags"] == [])
        }
    }

    @Test(arguments: Engine.available)
    func settingAndUnsettingTagsOfAContact(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let contact = try await me.contact("John")
            expectDataError(try await me.post("/api/contacts/\(contact)/setTags"), ["The tags field is required."])
            let set = try await me.post(
                "/api/contacts/\(contact)/setTags",
                ["tags": ["very-specific-tag-name", nil, "very-specific-tag-name-2"]])
            #expect(set.status == .ok)
            let tags = set.data?["tags"]?.arrayValue ?? []
            #expect(
                tags.compactMap { $0["name"]?.stringValue } == ["very-specific-tag-name", "very-specific-tag-name-2"])
            // Setting again reuses the tags and does not duplicate them on the contact.
            let again = try await me.post("/api/contacts/\(contact)/setTags", ["tags": ["very-specific-tag-name"]])
            #expect(again.data?["tags"]?.arrayValue?.count == 2)
            #expect(try await me.get("/api/tags").data?.arrayValue?.count == 2)
            expectNotFound(try await other.post("/api/contacts/\(contact)/setTags", ["tags": ["x"]]))

            _ = try await me.post("/api/contacts/\(contact)/setTags", ["tags": ["friend", "family", "work"]])
            let friend = try #require(
                try await me.get("/api/contacts/\(contact)").data?["tags"]?.arrayValue?.first {
                    $0["name"] == "friend"
                }?["id"]
            )
            expectDataError(try await me.post("/api/contacts/\(contact)/unsetTag"), ["The tags field is required."])
            let unset = try await me.post("/api/contacts/\(contact)/unsetTag", ["tags": [friend]])
            expectMissing(unset, [("name", "friend")])
            expectFragment(unset, [("name", "family"), ("name", "work")])
            let otherTag = try #require(try await other.post("/api/tags", ["name": "theirs"]).dataID)
            expectNotFound(try await me.post("/api/contacts/\(contact)/unsetTag", ["tags": [.int(otherTag)]]))
            let cleared = try await me.post("/api/contacts/\(contact)/unsetTags")
            #expect(cleared.data?["tags"] == [])
            #expect(try await me.get("/api/tags").data?.arrayValue?.count == 5, "tags stay when detached")
        }
    }

    @Test(arguments: Engine.available)
    func contactsOfATagWithTheirFields(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            for index in 1...10 { _ = try await me.contact("Untagged\(index)") }
            var tagged: [Int64] = []
            for index in 1...3 {
                let id = try await me.contact("Tagged\(index)")
                tagged.append(id)
                _ = try await me.post("/api/contacts/\(id)/setTags", ["tags": ["vip"]])
            }
            let tag = try #require(try await me.get("/api/tags").data?[0]?["id"]?.intValue)
            let contacts = try await me.get("/api/tags/\(tag)/contacts")
            #expect(ids(contacts) == tagged)
            expectStructure(contacts.json, ["data.*.contactFields", "data.*.notes", "data.*.statistics"])
            expectFragment(
                try await me.get("/api/tags/\(tag)/contacts?limit=1"),
                [("total", 3), ("current_page", 1), ("per_page", 1), ("last_page", 3)])
            expectNotFound(try await me.get("/api/tags/0/contacts"))
        }
    }

    @Test(arguments: Engine.available)
    func contactFieldsAndTheirTypes(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let types = try await me.get("/api/contactfieldtypes")
            #expect(
                types.data?.arrayValue?.compactMap { $0["name"]?.stringValue }
                    == ["Email", "Phone", "Facebook", "Twitter", "Whatsapp", "Telegram", "LinkedIn"])
            let email = try #require(types.data?[0]?["id"]?.intValue)
            let first = try await me.contact("John")
            let second = try await me.contact("Jane")
            let created = try await me.post(
                "/api/contactfields",
                ["contact_id": .int(first), "contact_field_type_id": .int(email), "data": "ok@example.com"])
            #expect(created.status == .created)
            expectStructure(
                created.data,
                [
                    "id", "object", "content", "contact_field_type.name", "account.id", "contact.id", "created_at",
                    "updated_at",
                ])
            let id = try #require(created.dataID)
            _ = try await me.post(
                "/api/contactfields",
                ["contact_id": .int(second), "contact_field_type_id": .int(email), "data": "jane@example.com"])
            let ofFirst = try await me.get("/api/contacts/\(first)/contactfields")
            #expect(ids(ofFirst) == [id])
            expectNotFound(try await me.get("/api/contacts/0/contactfields"))
            expectFragment(
                try await me.get("/api/contactfields/\(id)"),
                [("object", "contactfield"), ("content", "ok@example.com")])
            expectNotFound(try await me.get("/api/contactfields/0"))
            expectDataError(
                try await me.post("/api/contactfields", ["contact_id": .int(first)]),
                ["The contact field type id field is required.", "The data field is required."])
            let foreign = try await other.contact("Other")
            expectNotFound(
                try await me.post(
                    "/api/contactfields",
                    ["contact_id": .int(foreign), "contact_field_type_id": .int(email), "data": "x"]))

            let updated = try await me.put(
                "/api/contactfields/\(id)",
                ["contact_id": .int(first), "contact_field_type_id": .int(email), "data": "new@example.com"])
            #expect(updated.status == .ok)
            #expect(updated.data?["content"] == "new@example.com")
            #expect(
                ids(try await me.get("/api/contacts?query=new%40example.com")) == [first], "the new email is searchable"
            )
            #expect(ids(try await me.get("/api/contacts?query=ok%40example.com")).isEmpty, "the old one is not")
            expectDataError(
                try await me.put("/api/contactfields/\(id)", ["contact_id": .int(first)]),
                ["The contact field type id field is required.", "The data field is required."])
            expectNotFound(
                try await me.put(
                    "/api/contactfields/\(id)",
                    ["contact_id": .int(foreign), "contact_field_type_id": .int(email), "data": "x"]))
            #expect(try await me.delete("/api/contactfields/\(id)").json == ["deleted": true, "id": .int(id)])
            expectDataError(try await me.delete("/api/contactfields/0"), ["The selected contact field id is invalid."])

            let type = try await me.post(
                "/api/contactfieldtypes", ["name": "Mastodon", "protocol": "https://", "type": "social"])
            #expect(type.status == .created)
            expectFragment(type, [("name", "Mastodon"), ("delible", true)])
            expectDataError(try await me.post("/api/contactfieldtypes"), ["The name field is required."])
            expectNotFound(try await other.put("/api/contactfieldtypes/\(email)", ["name": "Mine"]))
            expectDataError(
                try await me.delete("/api/contactfieldtypes/\(email)"), ["The Email field type can't be deleted."])
            #expect(try await me.delete("/api/contactfieldtypes/\(try #require(type.dataID))").status == .ok)
        }
    }

    @Test(arguments: Engine.available)
    func genders(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let defaults = try await me.get("/api/genders")
            expectStructure(
                defaults.json, ["data.*.id", "data.*.object", "data.*.name", "data.*.type", "data.*.account.id"])
            #expect(
                defaults.data?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["Man", "Woman", "Rather not say"])
            let created = try await me.post("/api/genders", ["name": "man", "type": "M"])
            #expect(created.status == .created)
            let id = try #require(created.dataID)
            expectFragment(
                try await me.get("/api/genders?limit=1"),
                [("total", 4), ("current_page", 1), ("per_page", 1), ("last_page", 4)])
            expectFragment(try await me.get("/api/genders/\(id)"), [("object", "gender"), ("id", .int(id))])
            expectNotFound(try await me.get("/api/genders/0"))
            expectDataError(
                try await me.post("/api/genders", ["name": "x", "type": "U"]), ["The selected type is invalid."])
            #expect(try await me.put("/api/genders/\(id)", ["name": "male", "type": "M"]).data?["name"] == "male")
            expectNotFound(try await other.put("/api/genders/\(id)", ["name": "male", "type": "M"]))
            #expect(try await me.delete("/api/genders/\(id)").json == ["deleted": true, "id": .int(id)])
            expectDataError(try await me.delete("/api/genders/0"), ["The selected gender id is invalid."])
        }
    }
}
