import Foundation
import HTTPTypes
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

    /// The other's calls, debts, pets, conversations (and their messages), occupations and life
    /// events (and the reminder one brings) move to the kept contact, none lost and none of a third
    /// contact's taken; what is worked out from them is worked out from both: the latest call
    /// (the later of the two contacts', never a call of someone else), the counts.
    @Test(arguments: Engine.available)
    func callsDebtsPetsConversationsOccupationsAndLifeEventsMoveToTheKeptContact(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            let kept = try await me.contact("Charles", "Babbage")
            let other = try await me.contact("Charles")
            let ada = try await me.contact("Ada", "Lovelace")
            func make(_ path: String, _ body: JSONTree) async throws -> Int64 {
                let made = try await me.post(path, body)
                #expect((200..<300).contains(made.status.code), "POST \(path): \(made.text)")
                return try #require(made.dataID)
            }
            func call(_ contact: Int64, _ at: String) async throws -> Int64 {
                try await make("/api/calls", ["contact_id": .int(contact), "called_at": .string(at)])
            }
            func debt(_ contact: Int64, _ amount: Int64) async throws -> Int64 {
                try await make(
                    "/api/debts",
                    ["contact_id": .int(contact), "in_debt": "yes", "status": "inprogress", "amount": .int(amount)])
            }
            func pet(_ contact: Int64, _ name: String) async throws -> Int64 {
                try await make("/api/pets", ["contact_id": .int(contact), "pet_category_id": 3, "name": .string(name)])
            }
            let twitter = try #require(
                try await me.get("/api/contactfieldtypes").data?.arrayValue?.first { $0["name"] == "Twitter" }?["id"]?
                    .intValue)
            func conversation(_ contact: Int64, _ day: String) async throws -> Int64 {
                try await make(
                    "/api/conversations",
                    ["contact_id": .int(contact), "contact_field_type_id": .int(twitter), "happened_at": .string(day)])
            }
            let company = try await make("/api/companies", ["name": "Analytical Engines"])
            func occupation(_ contact: Int64, _ title: String) async throws -> Int64 {
                try await make(
                    "/api/occupations",
                    ["contact_id": .int(contact), "company_id": .int(company), "title": .string(title)])
            }
            let types = try #require(try await me.get("/api/lifeeventtypes").data?.arrayValue)
            let newJob = try #require(types.first { $0["name"] == "New job" }?["id"]?.intValue)
            let moved = try #require(types.first { $0["name"] == "Moved" }?["id"]?.intValue)
            func lifeEvent(_ contact: Int64, type: Int64, reminder: Bool) async throws -> Int64 {
                try await make(
                    "/api/lifeevents",
                    [
                        "contact_id": .int(contact), "life_event_type_id": .int(type), "happened_at": "1991-12-26",
                        "has_reminder": .bool(reminder), "happened_at_month_unknown": false,
                        "happened_at_day_unknown": false,
                    ])
            }

            // The kept contact's, the other's (whose latest call is the later), and Ada's (whose
            // call is the latest of all, and no one's but hers).
            let keptCall = try await call(kept, "2017-12-01 09:00")
            let otherEarlierCall = try await call(other, "2017-11-05")
            let otherLatestCall = try await call(other, "2017-12-24 18:30")
            let adasCall = try await call(ada, "2017-12-31 23:00")
            let keptCalls = [keptCall]
            let otherCalls = [otherEarlierCall, otherLatestCall]
            let keptDebt = try await debt(kept, 10)
            let otherDebt = try await debt(other, 20)
            let otherSecondDebt = try await debt(other, 30)
            let adasDebt = try await debt(ada, 40)
            let keptPet = try await pet(kept, "Whiskers")
            let otherPet = try await pet(other, "Tabby")
            let keptConversation = try await conversation(kept, "2017-10-01")
            let otherConversation = try await conversation(other, "2017-10-02")
            for (content, writtenAt) in [("second", "2017-10-02 10:00"), ("first", "2017-10-02 09:00")] {
                let added = try await me.post(
                    "/api/conversations/\(otherConversation)/messages",
                    ["written_at": .string(writtenAt), "written_by_me": false, "content": .string(content)])
                #expect(added.status == .ok, "\(added.text)")
            }
            let keptOccupation = try await occupation(kept, "Professor")
            let otherOccupation = try await occupation(other, "Inventor")
            let keptEvent = try await lifeEvent(kept, type: newJob, reminder: false)
            let otherEvent = try await lifeEvent(other, type: moved, reminder: true)
            let lists = ["calls", "debts", "pets", "conversations", "occupations", "lifeevents"]
            var totals: [String: JSONTree] = [:]
            for list in lists { totals[list] = try await me.get("/api/\(list)").json["meta"]?["total"] }
            #expect(totals["calls"] == 4 && totals["debts"] == 4 && totals["lifeevents"] == 2)
            let movedCallVersion = try await me.get("/api/calls/\(otherEarlierCall)").headers[.eTag]
            let keptCallVersion = try await me.get("/api/calls/\(keptCall)").headers[.eTag]
            let adaBefore = try await me.get("/api/contacts/\(ada)").data

            let merged = try await me.post("/api/contacts/\(kept)/merge", ["contact_id": .int(other)])
            #expect(merged.status == .ok, "\(merged.text)")
            let shownKept = try await me.get("/api/contacts/\(kept)").data
            for contact in [merged.data, shownKept] {
                #expect(contact?["last_called"] == "2017-12-24T18:30:00.000000Z", "the later of the two")
                #expect(contact?["statistics"]?["number_of_calls"] == 3)
                #expect(contact?["statistics"]?["number_of_debts"] == 3)
                #expect(contact?["statistics"]?["number_of_reminders"] == 1, "the life event's reminder came")
            }
            expectNotFound(try await me.get("/api/contacts/\(other)"))
            #expect(try await me.get("/api/contacts/\(ada)").data == adaBefore, "Ada's are still hers alone")

            // Every object is there, once, and on the kept contact.
            for list in lists {
                #expect(
                    try await me.get("/api/\(list)").json["meta"]?["total"] == totals[list], "no \(list) lost")
            }
            let everything: [(String, [Int64])] = [
                ("calls", keptCalls + otherCalls), ("debts", [keptDebt, otherDebt, otherSecondDebt]),
                ("pets", [keptPet, otherPet]), ("conversations", [keptConversation, otherConversation]),
                ("lifeevents", [keptEvent, otherEvent]),
            ]
            for (list, objects) in everything {
                let listed = try await me.get("/api/contacts/\(kept)/\(list)?limit=100")
                #expect(Set(ids(listed)) == Set(objects), "\(list) of the kept contact")
                #expect(ids(listed).count == objects.count, "\(list) once each")
                expectNotFound(try await me.get("/api/contacts/\(other)/\(list)"))
                for object in objects {
                    let shown = try await me.get("/api/\(list)/\(object)")
                    #expect(shown.data?["contact"]?["id"] == .int(kept), "\(list)/\(object) is the kept contact's")
                }
            }
            for object in [keptOccupation, otherOccupation] {
                let shown = try await me.get("/api/occupations/\(object)")
                #expect(shown.data?["contact"]?["id"] == .int(kept), "occupation \(object) is the kept contact's")
                #expect(shown.data?["company"]?["id"] == .int(company))
            }
            #expect(ids(try await me.get("/api/contacts/\(ada)/calls")) == [adasCall])
            #expect(ids(try await me.get("/api/contacts/\(ada)/debts")) == [adasDebt])

            // The conversation keeps its messages, in the order written, now the kept contact's.
            let talk = try await me.get("/api/conversations/\(otherConversation)")
            let messages = talk.data?["messages"]?.arrayValue ?? []
            #expect(messages.compactMap { $0["content"]?.stringValue } == ["first", "second"])
            #expect(messages.allSatisfy { $0["contact"]?["id"] == .int(kept) }, "\(messages)")
            #expect(talk.data?["contact_field_type"]?["id"] == .int(twitter))

            // The life event's reminder came with it, and still follows it.
            let reminders = try await me.get("/api/contacts/\(kept)/reminders")
            #expect(reminders.data?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Moved"])
            _ = try await me.put(
                "/api/lifeevents/\(otherEvent)", ["life_event_type_id": .int(newJob), "happened_at": "1992-01-02"])
            expectFragment(
                try await me.get("/api/contacts/\(kept)/reminders"),
                [("title", "New job"), ("initial_date", "1992-01-02T00:00:00Z")])

            // A moved object is a changed one (a version from before the merge is stale); the kept
            // contact's own are as they were.
            let movedNow = try await me.get("/api/calls/\(otherEarlierCall)").headers[.eTag]
            #expect(movedNow != nil && movedNow != movedCallVersion)
            #expect(try await me.get("/api/calls/\(keptCall)").headers[.eTag] == keptCallVersion)

            // The other way round: the kept contact's latest call is the later, and stays.
            let twin = try await me.contact("Charles", "B.")
            let twinsCall = try await call(twin, "2017-06-01")
            let again = try await me.post("/api/contacts/\(kept)/merge", ["contact_id": .int(twin)])
            #expect(again.status == .ok, "\(again.text)")
            #expect(again.data?["last_called"] == "2017-12-24T18:30:00.000000Z")
            #expect(again.data?["statistics"]?["number_of_calls"] == 4)
            let allCalls = try await me.get("/api/contacts/\(kept)/calls")
            #expect(Set(ids(allCalls)) == Set(keptCalls + otherCalls + [twinsCall]))
            // And deleting a call of the kept contact works its latest out again from all of them.
            #expect(try await me.delete("/api/calls/\(otherLatestCall)").status == .ok)
            #expect(
                try await me.get("/api/contacts/\(kept)").data?["last_called"] == "2017-12-01T09:00:00.000000Z")
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
