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
    /// What `fill` made: its contact, the paths of every object (each one's show, a contact's
    /// lists), and the objects that others name (a conversation and its message, a company, a
    /// contact field type, a life event type).
    struct Filled: Sendable {
        let contact: Int64
        let paths: [String]
        let conversation: Int64
        let message: Int64
        let company: Int64
        let fieldType: Int64
        let lifeEventType: Int64
    }

    /// A life event of `contact`, of type `type`, as a create takes it.
    static func lifeEvent(_ contact: Int64, type: Int64, name: String) -> JSONTree {
        [
            "contact_id": .int(contact), "life_event_type_id": .int(type), "happened_at": "2017-12-01",
            "name": .string(name), "has_reminder": false, "happened_at_month_unknown": false,
            "happened_at_day_unknown": false,
        ]
    }

    /// The id of `user`'s life event type "New job" (each account has types of its own).
    static func newJob(_ user: MonicaUser) async throws -> Int64 {
        try #require(
            try await user.get("/api/lifeeventtypes").data?.arrayValue?.first { $0["name"] == "New job" }?["id"]?
                .intValue)
    }

    /// `user`'s own objects that a change or a create by `user` may name (its contact, company,
    /// contact field type, life event type, a conversation), and for each kind of object `fill`
    /// makes, a change `user` could make to one of its own: sent to another account's object, it
    /// must be 404 (not a change, and not a refusal of its body that would say the object is there).
    struct Own: Sendable {
        let contact: Int64
        let company: Int64
        let fieldType: Int64
        let lifeEventType: Int64
        let conversation: Int64
        let changes: [String: JSONTree]

        static func make(_ user: MonicaUser, contact: Int64) async throws -> Own {
            let company = try #require(try await user.post("/api/companies", ["name": "Mine Inc"]).dataID)
            let fieldType = try #require(
                try await user.get("/api/contactfieldtypes").data?.arrayValue?.first { $0["name"] == "Twitter" }?["id"]?
                    .intValue)
            let lifeEventType = try await MonicaIsolationTests.newJob(user)
            let conversation = try #require(
                try await user.post(
                    "/api/conversations",
                    [
                        "contact_id": .int(contact), "contact_field_type_id": .int(fieldType),
                        "happened_at": "2017-12-02",
                    ]
                ).dataID)
            let changes: [String: JSONTree] = [
                "calls": ["called_at": "2017-12-02", "content": "changed"],
                "debts": [
                    "contact_id": .int(contact), "in_debt": "no", "status": "completed", "amount": 1,
                    "reason": "changed",
                ],
                "pets": ["contact_id": .int(contact), "pet_category_id": 4, "name": "changed"],
                "conversations": ["happened_at": "2017-12-02", "contact_field_type_id": .int(fieldType)],
                "journal": ["title": "changed", "post": "changed"],
                "journal/days": ["rate": 1, "comment": "changed"],
                "places": ["city": "changed"],
                "companies": ["name": "changed"],
                "occupations": ["contact_id": .int(contact), "company_id": .int(company), "title": "changed"],
                "lifeevents": [
                    "life_event_type_id": .int(lifeEventType), "happened_at": "2017-12-02", "name": "changed",
                ],
                "contactfieldtypes": ["name": "changed"],
            ]
            return Own(
                contact: contact, company: company, fieldType: fieldType, lifeEventType: lifeEventType,
                conversation: conversation, changes: changes)
        }
    }

    /// The kind of object a path names one of: the path without its id (`journal/days/3`: `journal/days`).
    static func kind(_ path: String) -> String { path.split(separator: "/").dropLast().joined(separator: "/") }

    /// Whether `path` is one object (show, update, delete), not a list.
    static func isOneObject(_ path: String) -> Bool {
        path.split(separator: "/").count == 2 || path.hasPrefix("journal/days/")
    }

    /// One of everything, owned by `user`; the paths of each object. Every text says "Secret", so
    /// a list that shows any of them to another account is seen to.
    static func fill(_ user: MonicaUser) async throws -> Filled {
        func made(_ path: String, _ body: JSONTree) async throws -> Int64 {
            let answer = try await user.post(path, body)
            #expect((200..<300).contains(answer.status.code), "POST \(path): \(answer.text)")
            return try #require(answer.dataID)
        }
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

        let call = try await made(
            "/api/calls", ["contact_id": .int(contact), "called_at": "2017-12-01", "content": "Secret call"])
        let debt = try await made(
            "/api/debts",
            [
                "contact_id": .int(contact), "in_debt": "yes", "status": "inprogress", "amount": 42,
                "reason": "Secret debt",
            ])
        let pet = try await made(
            "/api/pets", ["contact_id": .int(contact), "pet_category_id": 3, "name": "Secret pet"])
        let channel = try await made("/api/contactfieldtypes", ["name": "Secret channel"])
        let conversation = try await made(
            "/api/conversations",
            ["contact_id": .int(contact), "contact_field_type_id": .int(channel), "happened_at": "2017-12-01"])
        let messaged = try await user.post(
            "/api/conversations/\(conversation)/messages",
            ["written_at": "2017-12-01", "written_by_me": true, "content": "Secret message"])
        #expect(messaged.status == .ok, "\(messaged.text)")
        let message = try #require(messaged.data?["messages"]?[0]?["id"]?.intValue)
        let entry = try await made("/api/journal", ["title": "Secret entry", "post": "Secret post"])
        let day = try await made("/api/journal/days", ["date": "2017-12-01", "rate": 3, "comment": "Secret day"])
        let place = try await made("/api/places", ["city": "Secret City"])
        let company = try await made("/api/companies", ["name": "Secret Company"])
        let occupation = try await made(
            "/api/occupations", ["contact_id": .int(contact), "company_id": .int(company), "title": "Secret job"])
        let lifeEventType = try await newJob(user)
        let lifeEvent = try await made(
            "/api/lifeevents", Self.lifeEvent(contact, type: lifeEventType, name: "Secret event"))
        return Filled(
            contact: contact,
            paths: [
                "contacts/\(contact)", "contacts/\(contact)/addresses", "contacts/\(contact)/notes",
                "contacts/\(contact)/tasks", "contacts/\(contact)/gifts", "contacts/\(contact)/reminders",
                "contacts/\(contact)/activities", "contacts/\(contact)/contactfields",
                "contacts/\(contact)/relationships", "addresses/\(address)", "notes/\(note)", "tasks/\(task)",
                "gifts/\(gift)", "reminders/\(reminder)", "activities/\(activity)", "tags/\(tag)",
                "tags/\(tag)/contacts",
                "contactfields/\(field)", "relationships/\(relationship)", "genders/\(gender)",
                "relationshiptypes/\(partner)",
                // Monica has no list of a contact's occupations (Kith neither).
                "contacts/\(contact)/calls", "contacts/\(contact)/conversations", "contacts/\(contact)/debts",
                "contacts/\(contact)/pets", "contacts/\(contact)/lifeevents", "calls/\(call)",
                "conversations/\(conversation)", "debts/\(debt)", "pets/\(pet)", "journal/\(entry)",
                "journal/days/\(day)", "places/\(place)", "companies/\(company)", "occupations/\(occupation)",
                "lifeevents/\(lifeEvent)", "contactfieldtypes/\(channel)",
            ],
            conversation: conversation, message: message, company: company, fieldType: channel,
            lifeEventType: lifeEventType)
    }

    @Test(arguments: Engine.available)
    func anotherAccountsObjectsAreNotFoundAnywhere(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { owner, stranger, _ in
            let filled = try await Self.fill(owner)
            let (contact, paths) = (filled.contact, filled.paths)
            let mine = try await stranger.contact("Mine")
            let own = try await Own.make(stranger, contact: mine)
            var before: [String: JSONTree] = [:]
            for path in paths {
                let seen = try await owner.get("/api/\(path)")
                #expect(seen.status == .ok, "the owner sees \(path)")
                before[path] = seen.json
                expectNotFound(try await stranger.get("/api/\(path)"))
            }
            for path in paths where Self.isOneObject(path) && !path.hasPrefix("relationshiptypes") {
                // A change is refused before or after its body is checked, but never made.
                let changed = try await stranger.put("/api/\(path)", ["name": "x"])
                #expect(
                    changed.status == .notFound || changed.status == .unprocessableContent,
                    "PUT \(path) answered \(changed.status)")
                // A change its body lets through (naming the stranger's own objects) meets no object.
                if let body = own.changes[Self.kind(path)] {
                    expectNotFound(try await stranger.put("/api/\(path)", body))
                }
                expectNotFound(try await stranger.delete("/api/\(path)"))
            }

            // A conversation's messages: adding one to the owner's conversation, changing or deleting
            // one of its messages, in its conversation or through one of the stranger's own.
            let written: JSONTree = ["written_at": "2017-12-02", "written_by_me": true, "content": "changed"]
            let messages = "/api/conversations/\(filled.conversation)/messages"
            expectNotFound(try await stranger.post(messages, written))
            expectNotFound(try await stranger.put("\(messages)/\(filled.message)", written))
            expectNotFound(try await stranger.delete("\(messages)/\(filled.message)"))
            let throughOwn = "/api/conversations/\(own.conversation)/messages/\(filled.message)"
            expectNotFound(try await stranger.put(throughOwn, written))
            expectNotFound(try await stranger.delete(throughOwn))
            #expect(try await stranger.get("/api/conversations/\(own.conversation)").data?["messages"] == [])

            // Nothing is made on the owner's contact, nor with the owner's company, contact field
            // type or life event type (each beside the stranger's own other half).
            let creates: [(String, JSONTree)] = [
                ("calls", ["contact_id": .int(contact), "called_at": "2017-12-02"]),
                ("debts", ["contact_id": .int(contact), "in_debt": "no", "status": "inprogress", "amount": 1]),
                ("pets", ["contact_id": .int(contact), "pet_category_id": 4]),
                (
                    "conversations",
                    [
                        "contact_id": .int(contact), "contact_field_type_id": .int(own.fieldType),
                        "happened_at": "2017-12-02",
                    ]
                ),
                (
                    "conversations",
                    [
                        "contact_id": .int(own.contact), "contact_field_type_id": .int(filled.fieldType),
                        "happened_at": "2017-12-02",
                    ]
                ),
                ("occupations", ["contact_id": .int(contact), "company_id": .int(own.company), "title": "x"]),
                ("occupations", ["contact_id": .int(own.contact), "company_id": .int(filled.company), "title": "x"]),
                ("lifeevents", Self.lifeEvent(contact, type: own.lifeEventType, name: "x")),
                ("lifeevents", Self.lifeEvent(own.contact, type: filled.lifeEventType, name: "x")),
            ]
            for (list, body) in creates {
                expectNotFound(try await stranger.post("/api/\(list)", body))
            }
            for list in ["calls", "debts", "pets", "occupations", "lifeevents"] {
                #expect(try await stranger.get("/api/\(list)").json["meta"]?["total"] == 0, "no \(list) made")
            }
            #expect(try await stranger.get("/api/conversations").json["meta"]?["total"] == 1, "its own only")

            for list in [
                "contacts", "addresses", "notes", "tasks", "gifts", "reminders", "activities", "tags", "calls",
                "conversations", "debts", "pets", "journal", "journal/days", "places", "companies", "occupations",
                "lifeevents", "contactfieldtypes", "contacts/\(mine)/conversations",
            ] {
                let listed = try await stranger.get("/api/\(list)")
                #expect(listed.status == .ok, "\(list): \(listed.text)")
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
            let filled = try await Self.fill(me)
            let contact = filled.contact
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
            #expect(shown.data?["statistics"]?["number_of_calls"] == 1)
            #expect(shown.data?["statistics"]?["number_of_debts"] == 1)
            #expect(shown.data?["last_called"] == "2017-12-01T00:00:00.000000Z")
            // What names the contact names it as it is (its short form, the same in every list).
            let short = try await me.get("/api/calls").data?[0]?["contact"]
            #expect(short?["id"] == .int(contact))
            #expect(short?["complete_name"] == "Secret Person")
            for list in ["conversations", "debts", "pets", "occupations", "lifeevents"] {
                #expect(try await me.get("/api/\(list)").data?[0]?["contact"] == short, "\(list) names the contact")
            }
            #expect(shown.data?["information"]?["relationships"]?["love"]?["total"] == 1)

            #expect(try await me.delete("/api/contacts/\(contact)").status == .ok)
            for list in [
                "contacts", "addresses", "notes", "tasks", "gifts", "reminders", "calls", "conversations", "debts",
                "pets", "occupations", "lifeevents",
            ] {
                let answer = try await me.get("/api/\(list)")
                #expect(!answer.text.contains("Secret"), "\(list) forgot the contact")
            }
            for list in ["calls", "conversations", "debts", "pets", "occupations", "lifeevents"] {
                #expect(try await me.get("/api/\(list)").json["meta"]?["total"] == 0, "\(list) went with the contact")
            }
            // What was the account's, not the contact's, stays.
            for list in ["journal", "journal/days", "places", "companies"] {
                #expect(try await me.get("/api/\(list)").json["meta"]?["total"] == 1, "\(list) stays")
            }
            #expect(try await me.get("/api/contactfieldtypes/\(filled.fieldType)").status == .ok)
            #expect(ids(try await me.get("/api/tags/\(tagID)/contacts")).isEmpty)
            #expect(ids(try await me.get("/api/contacts?query=secret")).isEmpty)
            let activities = try await me.get("/api/activities")
            #expect(activities.data?[0]?["attendees"]?["total"] == 0, "the activity stays, without its attendee")
            let friend = try #require(ids(try await me.get("/api/contacts")).first)
            #expect(try await me.get("/api/contacts/\(friend)/relationships").data == [])
        }
    }
}
