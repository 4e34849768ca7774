import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// The audit log: what Monica notes (a contact made, its work or description changed, a company
/// made), per account and per contact.
@Suite("Monica API: audit logs")
struct MonicaAuditLogsTests {
    @Test(arguments: Engine.available)
    func theLogNotesWhatWasDoneToWhichContact(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, other, _ in
            let john = try await me.contact("John", "Doe")
            let jane = try await me.contact("Jane")
            _ = try await me.put("/api/contacts/\(john)/work", ["job": "Carpenter", "company": "Acme"])
            let update: JSONTree = [
                "first_name": "John", "last_name": "Doe", "description": "Met at the fair", "is_birthdate_known": false,
                "is_deceased": false, "is_deceased_date_known": false,
            ]
            _ = try await me.put("/api/contacts/\(john)", update)
            // The same description again changes nothing, so notes nothing.
            _ = try await me.put("/api/contacts/\(john)", update)
            var cleared = update.objectValue ?? JSONObject()
            cleared["description"] = .null
            _ = try await me.put("/api/contacts/\(john)", .object(cleared))
            _ = try await me.post("/api/companies", ["name": "Acme"])

            let log = try await me.get("/api/logs")
            #expect(log.status == .ok)
            expectStructure(
                log.json,
                [
                    "data.*.id", "data.*.object", "data.*.author.id", "data.*.author.name", "data.*.action",
                    "data.*.objects", "data.*.audited_at", "data.*.created_at", "data.*.updated_at",
                ])
            let actions = log.data?.arrayValue?.compactMap { $0["action"]?.stringValue }
            #expect(
                actions == [
                    "contact_created", "contact_created", "contact_work_updated", "contact_description_updated",
                    "contact_description_cleared", "company_created",
                ])
            #expect(log.data?[0]?["objects"] == ["contact_name": "John Doe", "contact_id": .int(john)])
            #expect(log.data?[5]?["objects"] == ["name": "Acme"])
            #expect(log.data?[0]?["audited_at"] == "2018-01-01T07:00:00Z")
            #expect(log.data?[0]?["author"]?["name"] == "me@example.com")

            let johns = try await me.get("/api/contacts/\(john)/logs")
            #expect(johns.json["meta"]?["total"] == 4)
            #expect(try await me.get("/api/contacts/\(jane)/logs").json["meta"]?["total"] == 1)
            expectNotFound(try await me.get("/api/contacts/0/logs"))

            // Another account's log is its own.
            expectNotFound(try await other.get("/api/contacts/\(john)/logs"))
            #expect(try await other.get("/api/logs").json["meta"]?["total"] == 0)

            // A deleted contact's entries stay in the account's history, naming it.
            _ = try await me.delete("/api/contacts/\(john)")
            let after = try await me.get("/api/logs")
            #expect(after.json["meta"]?["total"] == 6)
            #expect(after.data?[0]?["objects"]?["contact_name"] == "John Doe")

            // With a "me" contact, the author is named after it.
            _ = try await me.post("/api/me/contact", ["contact_id": .int(jane)])
            #expect(try await me.get("/api/logs").data?[0]?["author"]?["name"] == "Jane")
        }
    }
}
