import Foundation
import HTTPTypes
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Another account's objects are never there: 404 code 31 on every route, nothing in any list,
/// search or nesting. And one account's contact shows the same everywhere it appears, and is gone
/// everywhere once deleted.
@Suite("Monica API: isolation and consistency")
struct MonicaIsolationTests {
    /// One of everything, owned by `user`; the paths of each object.
    static func fill(_ user: MonicaUser) async throws -> (contact: Int64, paths: [String]) {
        let contact = try await user.contact("Secret", "Person", extra: [("email", "secret@example.com")])
        let friend = try await user.contact("Friend")
        let address = try #require(
            try await user.post("/api/addresses", ["contact_id": .int(contact), "city": "Paris"]).dataID)
        let note = try #require(
            try await user.post("/api/notes", ["contact_id": .int(contact), "body": "hidden"]).dataID)
        let task = try #require(try await user.post("/api/tasks", ["contact_id": .int(contact), "title": "t"]).dataID)
        let gift = try #require(
            try await user.post("/api/gifts", ["contact_id": .int(contact), "name": "g", "status": "idea"]).dataID)
        let reminder = try #require(
            try await user.post(
                "/api/reminders",
                [
                    "contact_id": .int(contact), "title": "r", "initial_date": "2030-01-01", "frequency_type": "year",
                    "frequency_number": 1,
                ]
            ).dataID)
        let activity = try #require(
            try await user.post(
                "/api/activities", ["contacts": [.int(contact)], "summary": "a", "happened_at": "2020-01-01"]
            ).dataID)
        _ = try await user.post("/api/contacts/\(contact)/setTags", ["tags": ["private"]])
        let tag = try #require(try await user.get("/api/tags").data?[0]?["id"]?.intValue)
        let field = try #require(
            try await user.get("/api/contacts/\(contact)/contactfields").data?[0]?["id"]?.intValue)
        let partner = try #require(
            try await user.get("/api/relationshiptypes?limit=100").data?.arrayValue?.first { $0["name"] == "partner" }?[
                "id"]?
                .intValue)
        let relationship = try #require(
            try await user.post(
                "/api/relationships",
                ["contact_is": .int(contact), "of_contact": .int(friend), "relationship_type_id": .int(partner)]
            ).dataID)
        let gender = try #require(try await user.get("/api/genders").data?[0]?["id"]?.intValue)
        return (
            contact,
            [
                "contacts/\(contact)", "contacts/\(contact)/addresses", "contacts/\(contact)/notes",
                "contacts/\(contact)/tasks", "contacts/\(contact)/gifts", "contacts/\(contact)/reminders",
                "contacts/\(contact)/activities", "contacts/\(contact)/contactfields",
                "contacts/\(contact)/relationships", "addresses/\(address)", "notes/\(note)", "tasks/\(task)",
                "gifts/\(gift)", "reminders/\(reminder)", "activities/\(activity)", "tags/\(tag)",
                "tags/\(tag)/contacts",
                "contactfields/\(field)", "relationships/\(relationship)", "genders/\(gender)",
                "relationshiptypes/\(partner)",
            ]
        )
    }

    @Test(arguments: Engine.available)
    func anotherAccountsObjectsAreNotFoundAnywhere(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { owner, stranger, _ in
            let (contact, paths) = try await Self.fill(owner)
            _ = try await stranger.contact("Mine")
            var before: [String: JSONTree] = [:]
            for path in paths {
                let seen = try await owner.get("/api/\(path)")
                #expect(seen.status == .ok, "the owner sees \(path)")
                before[path] = seen.json
                expectNotFound(try await stranger.get("/api/\(path)"))
            }
            for path in paths where path.split(separator: "/").count == 2 && !path.hasPrefix("relationshiptypes") {
                // A change is refused before or after its body is checked, but never made.
                let changed = try await stranger.put("/api/\(path)", ["name": "x"])
                #expect(
                    changed.status == .notFound || changed.status == .unprocessableContent,
                    "PUT \(path) answered \(changed.status)")
                expectNotFound(try await stranger.delete("/api/\(path)"))
            }
            for list in ["contacts", "addresses", "notes", "tasks", "gifts", "reminders", "activities", "tags"] {
                let listed = try await stranger.get("/api/\(list)")
                #expect(!listed.text.contains("Secret"), "\(list) leaks nothing")
            }
            for query in ["Secret", "secret%40example.com", "email:secret", "Email:secret@example.com", "Sekret"] {
                #expect(
                    ids(try await stranger.get("/api/contacts?query=\(query)")).isEmpty, "search \(query) leaks nothing"
                )
                #expect(
                    ids(try await owner.get("/api/contacts?query=\(query)")) == [contact], "the owner finds \(query)")
            }
            #expect(try await stranger.get("/api/reminders/upcoming/0").data == [])
            // Everything the owner made is still there, unchanged.
            for path in paths { #expect(try await owner.get("/api/\(path)").json == before[path], "\(path) unchanged") }
        }
    }

    @Test(arguments: Engine.available)
    func aContactShowsTheSameEverywhereAndLeavesEverywhere(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let (contact, _) = try await Self.fill(me)
            let shown = try await me.get("/api/contacts/\(contact)")
            let listed = try await me.get("/api/contacts").data?.arrayValue?.first { $0["id"] == .int(contact) }
            #expect(listed == shown.data, "the list and the contact agree")
            let address = try await me.get("/api/addresses").data?[0]
            #expect(shown.data?["addresses"]?[0] == address)
            #expect(address?["contact"]?["complete_name"] == "Secret Person")
            let tag = try await me.get("/api/tags").data?[0]
            #expect(shown.data?["tags"]?[0] == tag)
            let tagID = try #require(tag?["id"]?.intValue)
            #expect(ids(try await me.get("/api/tags/\(tagID)/contacts")) == [contact])
            #expect(shown.data?["statistics"]?["number_of_notes"] == 1)
            #expect(shown.data?["statistics"]?["number_of_tasks"] == 1)
            #expect(shown.data?["statistics"]?["number_of_gifts"] == 1)
            #expect(shown.data?["statistics"]?["number_of_reminders"] == 1)
            #expect(shown.data?["statistics"]?["number_of_activities"] == 1)
            #expect(shown.data?["information"]?["relationships"]?["love"]?["total"] == 1)

            #expect(try await me.delete("/api/contacts/\(contact)").status == .ok)
            for list in ["contacts", "addresses", "notes", "tasks", "gifts", "reminders"] {
                let answer = try await me.get("/api/\(list)")
                #expect(!answer.text.contains("Secret"), "\(list) forgot the contact")
            }
            #expect(ids(try await me.get("/api/tags/\(tagID)/contacts")).isEmpty)
            #expect(ids(try await me.get("/api/contacts?query=secret")).isEmpty)
            let activities = try await me.get("/api/activities")
            #expect(activities.data?[0]?["attendees"]?["total"] == 0, "the activity stays, without its attendee")
            let friend = try #require(ids(try await me.get("/api/contacts")).first)
            #expect(try await me.get("/api/contacts/\(friend)/relationships").data == [])
        }
    }
}
