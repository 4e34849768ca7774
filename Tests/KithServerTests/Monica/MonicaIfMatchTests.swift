import Foundation
import HTTPTypes
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// `ETag` and `If-Match` on every `/api` resource the Contacts pages change (Kith's, beyond
/// Monica: docs/monica.md): an answer that is one object carries its version; a change or a
/// deletion naming a version that is no longer the object's is refused with 412 and changes
/// nothing; naming the current one, or none, works as before.
@Suite("Monica API: ETag and If-Match")
struct MonicaIfMatchTests {
    /// What the pages change, and for each, a body whose one text field (or type, or day) says
    /// `version`. A conversation's messages are not here: a message's change answers its whole
    /// conversation, with no `ETag` (the answer is not the message whose version `If-Match` names);
    /// `MonicaConversationsTests.aMessageChangeChecksTheMessagesVersion` checks their `If-Match`.
    enum Edited: String, CaseIterable, Sendable {
        case contacts, addresses, contactfields, notes, tasks, activities, gifts, reminders, relationships
        case calls, conversations, debts, pets, journal, places, companies, occupations, lifeevents
        case days = "journal/days"

        func body(_ world: World, _ version: Int, creating: Bool) -> JSONTree {
            let text = JSONTree.string("version \(version)")
            let contact = JSONTree.int(world.contact)
            switch self {
            case .contacts:
                return [
                    "first_name": text, "is_birthdate_known": false, "is_deceased": false,
                    "is_deceased_date_known": false,
                ]
            case .addresses: return ["contact_id": contact, "name": text]
            case .contactfields:
                return ["contact_id": contact, "contact_field_type_id": .int(world.fieldType), "data": text]
            case .notes: return ["contact_id": contact, "body": text]
            case .tasks: return ["contact_id": contact, "title": text, "completed": false]
            case .activities: return ["summary": text, "happened_at": "2024-02-03", "contacts": [contact]]
            case .gifts: return ["contact_id": contact, "name": text, "status": "idea"]
            case .reminders:
                return [
                    "contact_id": contact, "title": text, "initial_date": "2024-02-03", "frequency_type": "one_time",
                    "frequency_number": 1,
                ]
            case .relationships:
                let type = JSONTree.int(world.relationshipTypes[version])
                return creating
                    ? ["contact_is": contact, "of_contact": .int(world.other), "relationship_type_id": type]
                    : ["relationship_type_id": type]
            case .calls:
                // A call stays with its contact: Monica's update names none.
                let call: JSONTree = ["called_at": "2024-02-03", "content": text]
                return creating ? Self.adding(call, ("contact_id", contact)) : call
            case .conversations:
                // Nothing a conversation holds is text: its day says the version (the 10th is 0).
                let conversation: JSONTree = [
                    "happened_at": .string("2024-02-1\(version)"), "contact_field_type_id": .int(world.fieldType),
                ]
                return creating ? Self.adding(conversation, ("contact_id", contact)) : conversation
            case .debts:
                return ["contact_id": contact, "in_debt": "yes", "status": "inprogress", "amount": 12, "reason": text]
            case .pets: return ["contact_id": contact, "pet_category_id": 3, "name": text]
            case .journal: return ["title": text, "post": "what happened"]
            case .days:
                // A day has one rating; a change keeps its day unless it names another.
                let rating: JSONTree = ["rate": 2, "comment": text]
                return creating ? Self.adding(rating, ("date", "2024-02-03")) : rating
            case .places: return ["city": text]
            case .companies: return ["name": text]
            case .occupations: return ["contact_id": contact, "company_id": .int(world.company), "title": text]
            case .lifeevents:
                let event: JSONTree = [
                    "life_event_type_id": .int(world.lifeEventType), "happened_at": "2024-02-03", "name": text,
                ]
                // The contact, the reminder and the unknown parts are given on create only.
                return creating
                    ? Self.adding(
                        event, ("contact_id", contact), ("has_reminder", false), ("happened_at_month_unknown", false),
                        ("happened_at_day_unknown", false))
                    : event
            }
        }

        /// `body` with `fields` added.
        private static func adding(_ body: JSONTree, _ fields: (String, JSONTree)...) -> JSONTree {
            guard var object = body.objectValue else { return body }
            for (key, value) in fields { object[key] = value }
            return .object(object)
        }

        /// The version an answer's object shows.
        func version(_ object: JSONTree?, _ world: World) -> Int? {
            let key: String
            switch self {
            case .relationships:
                return object?["relationship_type"]?["id"]?.intValue.flatMap {
                    world.relationshipTypes.firstIndex(of: $0)
                }
            case .conversations:
                // "2024-02-1N…": the day after "2024-02-1" is the version.
                return object?["happened_at"]?.stringValue.flatMap { Int($0.dropFirst("2024-02-1".count).prefix(1)) }
            case .contacts: key = "first_name"
            case .addresses, .gifts, .pets, .companies, .lifeevents: key = "name"
            case .contactfields, .calls: key = "content"
            case .notes: key = "body"
            case .tasks, .reminders, .journal, .occupations: key = "title"
            case .activities: key = "summary"
            case .debts: key = "reason"
            case .days: key = "comment"
            case .places: key = "city"
            }
            return object?[key]?.stringValue.flatMap { Int($0.dropFirst("version ".count)) }
        }
    }

    /// The objects a body names: a contact, another contact, a field type, relationship types, a
    /// company (an occupation's), a life event type.
    struct World: Sendable {
        let contact: Int64
        let other: Int64
        let fieldType: Int64
        let relationshipTypes: [Int64]
        let company: Int64
        let lifeEventType: Int64
        static func make(_ me: MonicaUser) async throws -> World {
            let contact = try await me.contact("Ada")
            let other = try await me.contact("Charles")
            let fieldTypes = try await me.get("/api/contactfieldtypes")
            // A type whose values are free text ("version 2"): a phone field must hold a number.
            let freeText = try #require(fieldTypes.data?.arrayValue?.first { $0["name"] == "Twitter" }?["id"]?.intValue)
            let types = try await me.get("/api/relationshiptypes?limit=100")
            let typeIDs = Array((types.data?.arrayValue ?? []).compactMap { $0["id"]?.intValue }.prefix(4))
            try #require(typeIDs.count == 4)
            let company = try #require(try await me.post("/api/companies", ["name": "Analytical Engines"]).dataID)
            let lifeEventTypes = try await me.get("/api/lifeeventtypes")
            let newJob = try #require(
                lifeEventTypes.data?.arrayValue?.first { $0["name"] == "New job" }?["id"]?.intValue)
            return World(
                contact: contact, other: other, fieldType: freeText, relationshipTypes: typeIDs, company: company,
                lifeEventType: newJob)
        }
    }

    static let cases: [(Engine, Edited)] = Engine.available.flatMap { engine in Edited.allCases.map { (engine, $0) } }

    @Test(arguments: cases)
    func aStaleVersionIsRefusedAndChangesNothing(_ engine: Engine, _ resource: Edited) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let world = try await World.make(me)
            let path = "/api/\(resource.rawValue)"
            let version: @Sendable (MonicaAnswer) -> Int? = { resource.version($0.data, world) }

            let made = try await me.post(path, resource.body(world, 0, creating: true))
            #expect((200..<300).contains(made.status.code), "\(made.text)")
            let id = try #require(made.dataID)
            let created = try #require(made.headers[.eTag], "a new \(resource) carries its version")
            #expect(created.hasPrefix("\"") && created.hasSuffix("\""), "a strong entity tag: \(created)")
            #expect(try await me.get("\(path)/\(id)").headers[.eTag] == created, "shown, the same version")

            // The version the writer saw is the current one: the change is made, with a new version.
            let changed = try await me.call(
                .put, "\(path)/\(id)", resource.body(world, 1, creating: false), headers: [.ifMatch: created])
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(version(changed) == 1)
            let current = try #require(changed.headers[.eTag])
            #expect(
                current != created,
                "a change gives a new version, even in the same millisecond (the test clock stands still)")

            // The writer saw the first version: refused, in Monica's envelope, and nothing changes.
            let stale = try await me.call(
                .put, "\(path)/\(id)", resource.body(world, 2, creating: false), headers: [.ifMatch: created])
            #expect(stale.status == .preconditionFailed, "\(stale.text)")
            #expect(stale["error"]?["error_code"] == 43)
            #expect(
                stale["error"]?["message"]?.stringValue?.hasPrefix("Someone changed this after you loaded it") == true)
            let staleDelete = try await me.call(.delete, "\(path)/\(id)", headers: [.ifMatch: created])
            #expect(staleDelete.status == .preconditionFailed, "\(staleDelete.text)")
            let after = try await me.get("\(path)/\(id)")
            #expect(after.status == .ok)
            #expect(version(after) == 1, "the refused change left the object as it was")
            #expect(after.headers[.eTag] == current)

            // Without If-Match, as Monica's own clients send it: as before.
            let plain = try await me.put("\(path)/\(id)", resource.body(world, 3, creating: false))
            #expect(plain.status == .ok, "\(plain.text)")
            #expect(version(plain) == 3)
            let latest = try #require(plain.headers[.eTag])

            // Deleting the version the writer saw.
            let deleted = try await me.call(.delete, "\(path)/\(id)", headers: [.ifMatch: latest])
            #expect(deleted.status == .ok, "\(deleted.text)")
            expectNotFound(try await me.get("\(path)/\(id)"))
        }
    }

    /// The contact form's case: a tab that loaded the contact before another saved its birthday,
    /// death and their reminders sends only a nickname. Refused, the other tab's dates and
    /// reminders stay; sent again with the current version, both are kept.
    @Test(arguments: Engine.available)
    func aStaleContactFormLeavesTheOtherTabsDatesAndReminders(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let marie = try await me.contact("Marie", "Curie")
            let loaded = try #require(try await me.get("/api/contacts/\(marie)").headers[.eTag])
            let dated = try await me.call(
                .put, "/api/contacts/\(marie)",
                [
                    "first_name": "Marie", "last_name": "Curie", "is_birthdate_known": true, "birthdate_day": 7,
                    "birthdate_month": 11, "birthdate_year": 1867, "birthdate_add_reminder": true, "is_deceased": true,
                    "is_deceased_date_known": true, "deceased_date_day": 4, "deceased_date_month": 7,
                    "deceased_date_year": 1934, "deceased_date_add_reminder": true,
                ], headers: [.ifMatch: loaded])
            #expect(dated.status == .ok, "\(dated.text)")
            let nicknameOnly: JSONTree = [
                "first_name": "Marie", "last_name": "Curie", "nickname": "Manya", "is_birthdate_known": false,
                "is_deceased": false, "is_deceased_date_known": false,
            ]
            let stale = try await me.call(.put, "/api/contacts/\(marie)", nicknameOnly, headers: [.ifMatch: loaded])
            #expect(stale.status == .preconditionFailed)
            let kept = try await me.get("/api/contacts/\(marie)")
            #expect(kept.data?["nickname"] == .null)
            #expect(kept.data?["is_dead"] == true)
            #expect(kept.data?["information"]?["dates"]?["birthdate"]?["date"] == "1867-11-07T00:00:00Z")
            let reminders = try await me.get("/api/contacts/\(marie)/reminders")
            #expect(
                Set(reminders.data?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? [])
                    == ["Wish happy birthday to Marie", "Anniversary of the death of Marie"])
            #expect(kept.headers[.eTag] == dated.headers[.eTag])
        }
    }

    /// `*`, a list naming the current version among others, a weak tag (never matches strongly),
    /// and a header that is not entity tags at all (400, nothing changes).
    @Test(arguments: Engine.available)
    func ifMatchListsStarsWeakTagsAndNonsense(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let (contact, id, first) = try await me.noteWithItsVersion()
            func put(_ body: String, _ ifMatch: String) async throws -> MonicaAnswer {
                try await me.call(
                    .put, "/api/notes/\(id)", ["contact_id": .int(contact), "body": .string(body)],
                    headers: [.ifMatch: ifMatch])
            }
            let starred = try await put("second", "*")
            #expect(starred.status == .ok)
            let second = try #require(starred.headers[.eTag])
            #expect(try await put("third", "\"1-2\", \(second) , W/\"x\"").status == .ok)
            let third = try #require(try await me.get("/api/notes/\(id)").headers[.eTag])
            #expect(try await put("weak", "W/\(third)").status == .preconditionFailed)
            #expect(try await put("old", "\(first), \(second)").status == .preconditionFailed)
            for nonsense in ["\(third.dropFirst().dropLast())", "\"unclosed", "\(third) trailing", ","] {
                let refused = try await put("nonsense", nonsense)
                #expect(refused.status == .badRequest, "\(nonsense)")
                #expect(
                    refused.json
                        == [
                            "error": [
                                "message":
                                    "The If-Match header must be * or a list of quoted entity tags, as the ETag header gives them.",
                                "error_code": 41,
                            ]
                        ])
            }
            #expect(try await me.get("/api/notes/\(id)").data?["body"] == "third")
            // What is not there is 404 first (RFC 9110 §13.2.1), whatever the header names.
            expectNotFound(try await me.call(.delete, "/api/notes/999999", headers: [.ifMatch: "\"1-1\""]))
        }
    }

    /// The check and the change are one step: of several changes sent at once against the same
    /// version, exactly one is made and the others are refused, and what is stored is the one made.
    @Test(arguments: Engine.available)
    func changesSentAtOnceAgainstOneVersionMakeOneChange(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let contact = try await me.contact("Ada")
            let loaded = try #require(try await me.get("/api/contacts/\(contact)").headers[.eTag])
            let answers = try await withThrowingTaskGroup(of: (String, HTTPResponse.Status).self) { group in
                for index in 1...6 {
                    group.addTask {
                        let nickname = "nickname \(index)"
                        let answer = try await me.call(
                            .put, "/api/contacts/\(contact)",
                            [
                                "first_name": "Ada", "nickname": .string(nickname), "is_birthdate_known": false,
                                "is_deceased": false, "is_deceased_date_known": false,
                            ], headers: [.ifMatch: loaded])
                        return (nickname, answer.status)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let made = answers.filter { $0.1 == .ok }
            #expect(made.count == 1, "\(answers)")
            #expect(answers.filter { $0.1 == .preconditionFailed }.count == 5, "\(answers)")
            #expect(try await me.get("/api/contacts/\(contact)").data?["nickname"] == .string(made.first?.0 ?? ""))
        }
    }
}

extension MonicaUser {
    /// A note "first" on a new contact: the contact's id, the note's, and the note's `ETag`.
    func noteWithItsVersion() async throws -> (contact: Int64, note: Int64, tag: String) {
        let contact = try await contact("Ada")
        let note = try await post("/api/notes", ["contact_id": .int(contact), "body": "first"])
        return (contact, try #require(note.dataID), try #require(note.headers[.eTag]))
    }
}
