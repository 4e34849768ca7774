import Foundation
import KithCore
import KithKit
import KithTestSupport
import Testing

/// `kith contacts import --from` with a real Monica's answers (MonicaStub's recorded bodies, their
/// links leading to the stub) as the source and a Kith server as the target: Monica's quirks
/// (numbers as text, booleans as "0", timestamps with microseconds, default types without names)
/// are read, ids remapped, files copied byte for byte.
@Suite("kith contacts import from recorded Monica answers")
struct MonicaImportRecordedTests {
    /// The account-wide lists an import reads, answered with the recorded lists (all of contact 42's,
    /// and the life events of 42 and 43).
    static let lists = [
        ("genders", "genders"), ("contactfieldtypes", "contactfieldtypes"), ("activitytypes", "activitytypes"),
        ("notes", "notes-42"), ("tasks", "tasks-42"), ("gifts", "gifts-42"), ("reminders", "reminders-42"),
        ("calls", "calls-42"), ("debts", "debts-42"), ("pets", "pets-42"), ("conversations", "conversations-42"),
        ("activities", "activities-42"), ("documents", "documents-42"), ("photos", "photos-42"),
    ]
    static let pdf = Data("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n".utf8)
    /// The picture `photos-42.json` carries as its data URL.
    static let png = Data(
        base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGMAAQAABQABDQottAAAAABJRU5ErkJggg==")!

    @Test("a Monica account is copied with its quirks read; a second run copies nothing", arguments: Engine.available)
    func importsARecordedMonicaAccount(engine: Engine) async throws {
        let stub = MonicaStub()
        stub.linkToItself()
        for (path, fixture) in Self.lists { stub.answer("GET /api/\(path)", .init(fixture: fixture)) }
        // A file slower than the profile's timeout (1 s below): an import gives each request minutes.
        stub.answer(
            "GET /store/documents/Vh3kQw9ZsT2bLm8nRx4pJc6dFy1gHa0e.pdf",
            .init(fixture: "", delay: .seconds(2), bytes: Self.pdf))
        stub.answer("GET /store/photos/Q2w3E4r5T6y7U8i9O0pAsDfGhJkL1z2x.png", .init(fixture: "", bytes: Self.png))
        try await stub.run { monica in
            try await LiveServer.run(engine, configure: ContactBookAgainstKithTests.unlimited) { server in
                let home = try makeTemporaryDirectory("kith-e2e-import")
                defer { try? FileManager.default.removeItem(at: home) }
                let laptop = ContactsCommandLineTests.Profile(name: "laptop", home: home, server: server.url)
                let target = try await ContactsCommandLineTests.signUp(laptop)
                let arguments = ["contacts", "import", "--from", monica.absoluteString, "--token", MonicaStub.token]
                // A whole account takes a few seconds, and far longer on a loaded machine.
                var importing = laptop
                importing.runLimit = 600
                var impatient = importing
                impatient.environment["KITH_TIMEOUT"] = "1"

                let first = try await impatient.object(arguments)
                let copied = try #require(first["copied"] as? [String: Int], "\(first)")
                for (kind, count) in [
                    ("contacts", 3), ("contactFields", 3), ("addresses", 1), ("notes", 2), ("tasks", 2), ("gifts", 1),
                    ("reminders", 1), ("calls", 2), ("debts", 2), ("pets", 2), ("conversations", 2), ("messages", 2),
                    ("activities", 2), ("lifeEvents", 3), ("occupations", 1), ("journalEntries", 2), ("documents", 1),
                    ("photos", 1), ("companies", 2), ("places", 2), ("genders", 1), ("contactFieldTypes", 1),
                    ("activityTypes", 1), ("dayRatings", 0),
                ] {
                    #expect(copied[kind] == count, "\(kind): \(copied)")
                }
                // Monica's "son" is a type that account made; Monica's API makes no types, so it is reported.
                let refused = try #require(first["refused"] as? [[String: Any]])
                #expect(refused.count == 1, "\(refused)")
                #expect(refused.first?["kind"] as? String == "relationships")
                #expect(refused.first?["reason"] as? String == "the target has no relationship type son")

                let contacts = try await target.jsonPage("contacts", [("with", "contactfields")], page: 1).items
                let john = try #require(contacts.first { $0["first_name"]?.stringValue == "John" })
                #expect(john["information"]?["dates"]?["birthdate"]?["date"]?.stringValue == "1980-10-10T00:00:00Z")
                #expect(john["information"]?["career"]?["job"]?.stringValue == "Carpenter")
                #expect(john["tags"]?[0]?["name"]?.stringValue == "friends")
                #expect(john["gender"]?.stringValue == "Man")
                let johnID = try #require(john["id"]?.intValue)
                let gift = try #require(try await target.jsonPage("gifts", page: 1).items.first)
                #expect(gift["amount"]?.doubleValue == 89.9 || gift["amount"]?.stringValue == "89.90", "\(gift)")
                #expect(gift["contact"]?["id"]?.intValue == johnID)
                let tasks = try await target.jsonPage("tasks", page: 1).items
                #expect(
                    Set(
                        tasks.compactMap { task in
                            task["title"]?.stringValue.map { "\($0) \(task["completed"]?.boolValue ?? false)" }
                        })
                        == ["Return the drill true", "Send the photos false"], "\(tasks)")
                let activities = try await target.jsonPage("activities", page: 1).items
                #expect(activities.contains { $0["activity_type"]?["name"]?.stringValue == "just hung out" })
                let events = try await target.jsonPage("lifeevents", page: 1).items
                #expect(
                    events.contains { $0["life_event_type"]?["default_life_event_type_key"]?.stringValue == "new_job" })
                let document = try #require(try await target.jsonPage("documents", page: 1).items.first)
                #expect(document["original_filename"]?.stringValue == "Lease 2021.pdf")
                #expect(try await target.download(try #require(document["link"]?.stringValue)) == Self.pdf)
                let photo = try #require(try await target.jsonPage("photos", page: 1).items.first)
                #expect(try await target.download(try #require(photo["link"]?.stringValue)) == Self.png)

                let again = try await importing.object(arguments)
                #expect((again["copied"] as? [String: Int])?.values.allSatisfy { $0 == 0 } == true, "\(again)")
                #expect((again["already_copied"] as? [String: Int])?["contacts"] == 3, "\(again)")
            }
        }
    }
}
