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

    static func recordedShapes() throws -> [String: Set<String>] {
        let folder = RepositoryPaths.root.appendingPathComponent("Tests/fixtures/monica")
        var shapes: [String: Set<String>] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".json") {
            let tree = try #require(JSONTree.parse(try Data(contentsOf: folder.appendingPathComponent(file))), "\(file)")
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
                ("/api/addresses", ["contact_id": .int(john), "name": "Home", "city": "Paris", "country": "FR", "latitude": 48.85, "longitude": 2.35]),
                ("/api/notes", ["contact_id": .int(john), "body": "Likes tea", "is_favorited": true]),
                ("/api/tasks", ["contact_id": .int(john), "title": "Call back", "description": "about tea"]),
                ("/api/gifts", ["contact_id": .int(john), "name": "Teapot", "status": "idea", "amount": 20]),
                (
                    "/api/reminders",
                    [
                        "contact_id": .int(john), "title": "Birthday", "initial_date": "2026-10-10", "frequency_type": "year",
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
                ["summary": "Tea", "happened_at": "2026-11-01", "contacts": [.int(john)], "activity_type_id": .int(activityType)])
            #expect(activity.status == .created, "\(activity.text)")

            var served: [String: Set<String>] = [:]
            for path in [
                "/api/contacts/\(john)?with=contactfields", "/api/contacts", "/api/contacts/\(john)/relationships",
                "/api/contacts/\(john)/addresses", "/api/contacts/\(john)/notes", "/api/contacts/\(john)/tasks",
                "/api/contacts/\(john)/gifts", "/api/contacts/\(john)/reminders", "/api/contacts/\(john)/activities",
                "/api/contacts/\(john)/contactfields", "/api/contactfieldtypes", "/api/relationshiptypes", "/api/tags", "/api/me",
                "/api/countries", "/api/activitytypes", "/api/activitytypecategories",
            ] {
                let answer = try await me.get(path)
                #expect(answer.status == .ok, "\(path): \(answer.text)")
                Self.shapes(of: answer.json, into: &served)
            }

            let recorded = try Self.recordedShapes()
            #expect(recorded["relationship"] == ["id", "uuid", "name"], "the recorded answers hold a relationship group")
            for (kind, fields) in recorded.sorted(by: { $0.key < $1.key }) {
                // Kith sends no currency: an account has none until it sets one (`currency: null`).
                if kind == "object:currency" { continue }
                guard let kept = served[kind] else {
                    Issue.record("Kith served no \(kind)")
                    continue
                }
                let missing = fields.subtracting(kept)
                #expect(missing.isEmpty, "\(kind) lacks \(missing.sorted())")
            }
        }
    }
}
