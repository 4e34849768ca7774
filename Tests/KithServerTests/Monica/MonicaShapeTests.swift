import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Every kind of object Kith's `/api` serves carries every field Monica 4.x sends for it, as the
/// recorded Monica answers (Tests/fixtures/monica/) hold them: a client decoding Monica's shape
/// (the original iOS app requires `uuid` on relationships and contact field types) decodes Kith's.
@Suite("Monica's object shapes")
struct MonicaShapeTests {
    /// Keys per kind of object: `object:<type>` for an object naming its type, else the key it is
    /// found under (a relationship group's entries are `relationship`).
    static func shapes(of tree: JSONTree, under key: String = "", into shapes: inout [String: Set<String>]) {
        switch tree {
        case .object(let object):
            let kind = object["object"]?.stringValue.map { "object:" + $0 } ?? key
            shapes[kind, default: []].formUnion(object.keys)
            for (member, value) in object.members { Self.shapes(of: value, under: member, into: &shapes) }
        case .array(let items):
            for item in items { Self.shapes(of: item, under: key, into: &shapes) }
        default:
            break
        }
    }

    /// The kinds compared: the typed objects, and the one untyped object a client decodes by name.
    static func compared(_ kind: String) -> Bool { kind.hasPrefix("object:") || kind == "relationship" }

    /// Every kind the recorded answers must hold, so a fixture lost or cut short is noticed rather
    /// than compared no more.
    static let recordedKinds: Set<String> = [
        "object:activity", "object:activityType", "object:activityTypeCategory", "object:address", "object:auditlog",
        "object:call", "object:company", "object:contact", "object:contactfield", "object:contactfieldtype",
        "object:conversation", "object:country", "object:currency", "object:debt", "object:document",
        "object:emotion", "object:entry", "object:gender", "object:gift", "object:lifeevent",
        "object:lifeeventcategory",
        "object:lifeeventtype", "object:message", "object:note", "object:occupation", "object:pet",
        "object:pet_category", "object:photo", "object:place", "object:relationship", "object:relationshiptype",
        "object:reminder", "object:tag", "object:task", "object:user", "relationship",
    ]

    /// What Kith deliberately does not send of what Monica sends (docs/monica.md, "Where Kith
    /// differs"), each with its reason: a whole kind (`fields` nil) or some of a kind's fields. An
    /// entry Kith no longer needs (it serves the kind, or the fields) fails the test, so the list
    /// stays true.
    static let leftOut: [String: (fields: Set<String>?, reason: String)] = [
        "object:emotion": (
            nil,
            "Kith keeps no emotions (docs/monica.md, \"Not kept\"): a call's and an activity's `emotions` is []"
        )
    ]

    static func recordedShapes() throws -> [String: Set<String>] {
        let folder = RepositoryPaths.root.appendingPathComponent("Tests/fixtures/monica")
        var shapes: [String: Set<String>] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".json") {
            let tree = try #require(
                JSONTree.parse(try Data(contentsOf: folder.appendingPathComponent(file))), "\(file)")
            Self.shapes(of: tree, into: &shapes)
        }
        return shapes.filter { Self.compared($0.key) }
    }

    @Test(arguments: Engine.available)
    func everyObjectCarriesTheFieldsMonicaSends(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let john = try await me.contact("John", "Doe", extra: [("email", "john@doe.com"), ("nickname", "Titi")])
            let father = try await me.contact("Jonathan", "Doe")
            let fatherType = try await MonicaRelationshipsTests.type(me, "parent")
            let related = try await me.post(
                "/api/relationships",
                ["contact_is": .int(father), "relationship_type_id": .int(fatherType), "of_contact": .int(john)])
            #expect(related.status == .created, "\(related.text)")
            let written: [(String, JSONTree)] = [
                (
                    "/api/addresses",
                    [
                        "contact_id": .int(john), "name": "Home", "city": "Paris", "country": "FR", "latitude": 48.85,
                        "longitude": 2.35,
                    ]
                ),
                ("/api/notes", ["contact_id": .int(john), "body": "Likes tea", "is_favorited": true]),
                ("/api/tasks", ["contact_id": .int(john), "title": "Call back", "description": "about tea"]),
                ("/api/gifts", ["contact_id": .int(john), "name": "Teapot", "status": "idea", "amount": 20]),
                (
                    "/api/reminders",
                    [
                        "contact_id": .int(john), "title": "Birthday", "initial_date": "2026-10-10",
                        "frequency_type": "year",
                        "frequency_number": 1,
                    ]
                ),
                ("/api/contacts/\(john)/setTags", ["tags": ["friends"]]),
            ]
            for (path, body) in written {
                let answer = try await me.post(path, body)
                #expect(answer.status.code < 300, "\(path): \(answer.text)")
            }
            let types = try await me.get("/api/activitytypes?limit=100")
            let activityType = try #require(types.data?.arrayValue?.first?["id"]?.intValue)
            let activity = try await me.post(
                "/api/activities",
                [
                    "summary": "Tea", "happened_at": "2026-11-01", "contacts": [.int(john)],
                    "activity_type_id": .int(activityType),
                ])
            #expect(activity.status == .created, "\(activity.text)")

            // Everything else Kith serves as Monica does, one of each.
            let life = try await Self.makeOneOfEachOtherKind(me, of: john)

            var served: [String: Set<String>] = [:]
            for path in [
                "/api/contacts/\(john)?with=contactfields", "/api/contacts", "/api/contacts/\(john)/relationships",
                "/api/contacts/\(john)/addresses", "/api/contacts/\(john)/notes", "/api/contacts/\(john)/tasks",
                "/api/contacts/\(john)/gifts", "/api/contacts/\(john)/reminders", "/api/contacts/\(john)/activities",
                "/api/contacts/\(john)/contactfields", "/api/contactfieldtypes", "/api/relationshiptypes", "/api/tags",
                "/api/me",
                "/api/countries", "/api/activitytypes", "/api/activitytypecategories",
                "/api/contacts/\(john)/calls", "/api/contacts/\(john)/debts", "/api/contacts/\(john)/pets",
                "/api/contacts/\(john)/conversations", "/api/conversations/\(life.conversation)", "/api/lifeevents",
                "/api/contacts/\(john)/lifeevents", "/api/journal", "/api/places", "/api/companies", "/api/occupations",
                "/api/contacts/\(john)/documents", "/api/contacts/\(john)/photos", "/api/contacts/\(john)/logs",
                "/api/logs", "/api/gifts/\(life.gift)", "/api/genders",
            ] {
                let answer = try await me.get(path)
                #expect(answer.status == .ok, "\(path): \(answer.text)")
                Self.shapes(of: answer.json, into: &served)
            }

            let recorded = try Self.recordedShapes()
            #expect(
                recorded["relationship"] == ["id", "uuid", "name"], "the recorded answers hold a relationship group")
            let lost = Self.recordedKinds.subtracting(recorded.keys)
            #expect(lost.isEmpty, "the recorded answers no longer hold \(lost.sorted())")
            for (kind, fields) in recorded.sorted(by: { $0.key < $1.key }) {
                let kept = served[kind]
                if let difference = Self.leftOut[kind] {
                    if let allowed = difference.fields {
                        let missing = fields.subtracting(kept ?? [])
                        let reason = difference.reason
                        #expect(
                            missing == allowed,
                            "\(kind) lacks \(missing.sorted()); only \(allowed.sorted()) are left out: \(reason)")
                    } else {
                        #expect(kept == nil, "Kith serves \(kind) now: take it off `leftOut` (\(difference.reason))")
                    }
                    continue
                }
                guard let kept else {
                    Issue.record("Kith served no \(kind)")
                    continue
                }
                let missing = fields.subtracting(kept)
                #expect(missing.isEmpty, "\(kind) lacks \(missing.sorted())")
            }
        }
    }

    /// Through the API, one of each kind Kith serves besides contacts and their first sections: a
    /// call, a conversation with a message, a debt, a pet, a journal entry, a place, a company and
    /// an occupation, a life event, a document, a photo shown on a gift (John's contact made an
    /// audit log entry already). The conversation's and the gift's ids.
    static func makeOneOfEachOtherKind(_ me: MonicaUser, of john: Int64) async throws
        -> (conversation: Int64, gift: Int64)
    {
        func made(_ answer: MonicaAnswer, _ what: String) throws -> Int64 {
            #expect(answer.status.code < 300, "\(what): \(answer.text)")
            return try #require(answer.dataID, "\(what): \(answer.text)")
        }
        let contact: (String, JSONTree) = ("contact_id", .int(john))
        _ = try made(
            try await me.post(
                "/api/calls",
                .object(
                    JSONObject([contact, ("content", "Alps"), ("called_at", "2024-04-20"), ("contact_called", true)]))),
            "a call")
        let medium = try #require(try await me.get("/api/contactfieldtypes").data?[0]?["id"]?.intValue)
        let conversation = try made(
            try await me.post(
                "/api/conversations",
                .object(JSONObject([contact, ("contact_field_type_id", .int(medium)), ("happened_at", "2024-04-28")]))),
            "a conversation")
        _ = try made(
            try await me.post(
                "/api/conversations/\(conversation)/messages",
                ["written_at": "2024-04-28", "written_by_me": true, "content": "Still up for the Alps?"]),
            "a message")
        _ = try made(
            try await me.post(
                "/api/debts",
                .object(
                    JSONObject([
                        contact, ("in_debt", "yes"), ("status", "inprogress"), ("amount", 150), ("reason", "Tickets"),
                    ]))),
            "a debt")
        _ = try made(
            try await me.post("/api/pets", .object(JSONObject([contact, ("pet_category_id", 4), ("name", "Rex")]))),
            "a pet")
        _ = try made(
            try await me.post("/api/journal", ["title": "Climbing day", "post": "New route", "date": "2024-05-03"]),
            "a journal entry")
        _ = try made(
            try await me.post(
                "/api/places",
                [
                    "street": "12 rue de Rivoli", "city": "Paris", "country": "FR", "latitude": 48.8559,
                    "longitude": 2.3578,
                ]),
            "a place")
        let company = try made(
            try await me.post(
                "/api/companies", ["name": "Acme", "website": "https://acme.example", "number_of_employees": 250]),
            "a company")
        _ = try made(
            try await me.post(
                "/api/occupations",
                .object(
                    JSONObject([
                        contact, ("company_id", .int(company)), ("title", "Carpenter"), ("salary", 42000),
                        ("salary_unit", "year"), ("currently_works_here", true), ("start_date", "2019-03-01"),
                    ]))),
            "an occupation")
        let eventType = try #require(try await me.get("/api/lifeeventtypes").data?[0]?["id"]?.intValue)
        _ = try made(
            try await me.post("/api/lifeevents", MonicaLifeEventsTests.event(contact: john, type: eventType)),
            "a life event")
        _ = try made(
            try await MonicaFilesTests.send(
                me, "/api/documents", fields: [("contact_id", "\(john)")],
                files: [("document", "Lease.pdf", MonicaFilesTests.pdf)]),
            "a document")
        let photo = try made(
            try await MonicaFilesTests.send(
                me, "/api/photos", fields: [("contact_id", "\(john)")],
                files: [("photo", "alps.png", MonicaFilesTests.png)]),
            "a photo")
        let gift = try made(
            try await me.post("/api/gifts", .object(JSONObject([contact, ("name", "Rope"), ("status", "idea")]))),
            "a gift")
        _ = try made(try await me.put("/api/gifts/\(gift)/photo/\(photo)"), "a gift's photo")
        return (conversation, gift)
    }
}
