import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Kith's `POST /api/contacts/{id}/merge` (docs/monica.md, "Kith's extension: merging two
/// contacts"), on every engine: everything on both is kept on one, in one transaction.
@Suite("Monica API: merging two contacts")
struct MonicaMergeTests {
    @Test(arguments: Engine.available)
    func everythingOnBothEndsUpOnTheKeptContact(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            let types = try await me.get("/api/contactfieldtypes")
            let email = try #require(types.data?[0]?["id"]?.intValue)
            let phone = try #require(types.data?[1]?["id"]?.intValue)
            let kept = try await me.contact("Charles", "Babbage")
            let other = try await me.contact(
                "Charles", nil,
                extra: [
                    ("nickname", "Charlie"), ("is_birthdate_known", true), ("birthdate_day", 26),
                    ("birthdate_month", 12), ("birthdate_year", 1791), ("birthdate_add_reminder", true),
                ])
            let ada = try await me.contact("Ada", "Lovelace")
            func field(_ contact: Int64, _ type: Int64, _ data: String) async throws {
                let made = try await me.post(
                    "/api/contactfields",
                    ["contact_id": .int(contact), "contact_field_type_id": .int(type), "data": .string(data)])
                #expect(made.status == .created, "\(made.text)")
            }
            try await field(kept, email, "babbage@example.com")
            try await field(other, email, "babbage@example.com")
            try await field(other, phone, "+44 20 0000 0000")
            _ = try await me.post("/api/addresses", ["contact_id": .int(other), "city": "London", "country": "GB"])
            _ = try await me.post("/api/notes", ["contact_id": .int(other), "body": "Owes me a wheel"])
            _ = try await me.post("/api/tasks", ["contact_id": .int(other), "title": "Ask about the engine"])
            _ = try await me.post(
                "/api/gifts",
                ["contact_id": .int(ada), "name": "Punched cards", "status": "idea", "recipient_id": .int(other)])
            _ = try await me.post("/api/gifts", ["contact_id": .int(other), "name": "Teapot", "status": "idea"])
            _ = try await me.post("/api/contacts/\(other)/setTags", ["tags": ["engines", "london"]])
            _ = try await me.post("/api/contacts/\(kept)/setTags", ["tags": ["engines"]])
            let activity = try await me.post(
                "/api/activities",
                ["summary": "Tea", "happened_at": "2017-12-01", "contacts": [.int(other), .int(ada)]])
            #expect(activity.status == .created, "\(activity.text)")
            let relationshipTypes = try await me.get("/api/relationshiptypes?limit=100")
            let friend = try #require(
                relationshipTypes.data?.arrayValue?.first { $0["name"] == "friend" }?["id"]?.intValue)
            for (from, to) in [(other, ada), (other, kept)] {
                let made = try await me.post(
                    "/api/relationships",
                    ["contact_is": .int(from), "of_contact": .int(to), "relationship_type_id": .int(friend)])
                #expect(made.status == .created, "\(made.text)")
            }

            let merged = try await me.post(
                "/api/contacts/\(kept)/merge?with=contactfields", ["contact_id": .int(other)])
            #expect(merged.status == .ok, "\(merged.text)")
            let contact = try #require(merged.data)
            #expect(contact["id"] == .int(kept))
            #expect(contact["first_name"] == "Charles" && contact["last_name"] == "Babbage", "kept names stay")
            #expect(contact["nickname"] == "Charlie", "a blank is filled")
            #expect(contact["information"]?["dates"]?["birthdate"]?["date"] == "1791-12-26T00:00:00Z")
            let fields = contact["contactFields"]?.arrayValue?.compactMap { $0["content"]?.stringValue } ?? []
            #expect(fields.sorted() == ["+44 20 0000 0000", "babbage@example.com"], "the same email once: \(fields)")
            #expect(
                Set(contact["tags"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []) == ["engines", "london"])
            #expect(contact["addresses"]?[0]?["city"] == "London")
            expectNotFound(try await me.get("/api/contacts/\(other)"))

            #expect(ids(try await me.get("/api/contacts/\(kept)/notes")).count == 1)
            #expect(ids(try await me.get("/api/contacts/\(kept)/tasks")).count == 1)
            #expect(ids(try await me.get("/api/contacts/\(kept)/gifts")).count == 1)
            let adasGift = try await me.get("/api/contacts/\(ada)/gifts").data?[0]
            #expect(adasGift?["recipient"]?["id"] == .int(kept), "a gift for the other is now for the kept one")
            let attendees = try await me.get("/api/contacts/\(kept)/activities").data?[0]?["attendees"]?["contacts"]
            #expect(Set(attendees?.arrayValue?.compactMap { $0["id"]?.intValue } ?? []) == [kept, ada])
            let reminders = try await me.get("/api/contacts/\(kept)/reminders").data?.arrayValue ?? []
            #expect(
                reminders.compactMap { $0["title"]?.stringValue } == ["Wish happy birthday to Charles"],
                "the birthday's reminder came with the birthday")
            let relationships = try await me.get("/api/contacts/\(kept)/relationships").data?.arrayValue ?? []
            #expect(
                relationships.compactMap { $0["of_contact"]?["id"]?.intValue } == [ada],
                "a friend of Ada; not a friend of itself: \(relationships)")
            // Search finds the kept one by the merged-in nickname, and only once.
            #expect(ids(try await me.get("/api/contacts?query=Charlie")) == [kept])
        }
    }

    @Test(arguments: Engine.available)
    func refusalsChangeNothing(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let kept = try await me.contact("Ada")
            let twin = try await me.contact("Ada", "L.")
            let foreign = try await other.contact("Ada", "Elsewhere")
            expectNotFound(try await me.post("/api/contacts/\(kept)/merge", ["contact_id": .int(foreign)]))
            expectNotFound(try await other.post("/api/contacts/\(foreign)/merge", ["contact_id": .int(kept)]))
            expectNotFound(try await me.post("/api/contacts/\(foreign)/merge", ["contact_id": .int(twin)]))
            expectDataError(
                try await me.post("/api/contacts/\(kept)/merge", ["contact_id": .int(kept)]),
                ["A contact cannot be merged with itself."])
            expectDataError(
                try await me.post("/api/contacts/\(kept)/merge", [:]), ["The contact id field is required."])
            #expect(try await me.get("/api/contacts").json["meta"]?["total"] == 2)
            #expect(try await other.get("/api/contacts/\(foreign)").status == .ok)

            // A merge names the kept contact's version: a stale one is refused, nothing merged.
            let shown = try await me.get("/api/contacts/\(kept)")
            let tag = try #require(shown.headers[.eTag])
            _ = try await me.put(
                "/api/contacts/\(kept)",
                [
                    "first_name": "Ada", "nickname": "Countess", "is_birthdate_known": false, "is_deceased": false,
                    "is_deceased_date_known": false,
                ])
            let stale = try await me.call(
                .post, "/api/contacts/\(kept)/merge", ["contact_id": .int(twin)], headers: [.ifMatch: tag])
            #expect(stale.status == .preconditionFailed)
            #expect(try await me.get("/api/contacts/\(twin)").status == .ok)
        }
    }
}
