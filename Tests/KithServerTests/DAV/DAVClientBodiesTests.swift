import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Cards and tasks as iOS, Android (DAVx5, Tasks.org), Thunderbird, Google and Nextcloud write
/// them (`Tests/fixtures/dav/`, SOURCES.md names each one's source), sent to Kith as those apps
/// send them: each becomes Kith's data, and what Kith has no field for comes back unchanged even
/// after the contact or reminder changes elsewhere.
@Suite("DAV clients' own bodies")
struct DAVClientBodiesTests {
    static let fixtures = RepositoryPaths.root.appendingPathComponent("Tests/fixtures/dav")

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
    }

    /// Noon UTC on `day`, for the test clock.
    static func noon(_ day: LocalDate) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))
    }

    @Test(arguments: Engine.available)
    func everyAppsCardsBecomeContactsAndKeepWhatKithCannotStore(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let phone = try await DAVPhone.make("cards@example.com", client)
            let files = [
                "ios-contact-v3.vcf", "davx5-allfields-v3.vcf", "thunderbird-contact-v4.vcf",
                "google-contacts-export.vcf",
                "radicale-quoted-printable-v21.vcf",
            ]
            var index = 0
            for file in files {
                for card in try ContactCard.parse(try Self.fixture(file)) {
                    index += 1
                    // Sent as the app sends it: one card, in the version the app writes.
                    var sent = card
                    if sent.uid.isEmpty { sent.uid = "fixture-\(index)" }
                    let version: ContactCard.Version = try Self.fixture(file).contains("VERSION:4.0") ? .v4 : .v3
                    let path = phone.addressBook + "card\(index).vcf"
                    let made = try await phone.put(path, sent.write(version), ifNoneMatch: "*")
                    #expect(made.status == .created, "\(file): \(made.status) \(made.text)")

                    let query = sent.name.family.isEmpty ? sent.formattedName : sent.name.family
                    let found = try await phone.api(
                        .get,
                        "/api/contacts?query=\(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
                    )
                    let contact = try #require(found["data"]?[0], "\(file): no contact found for \(query)")
                    let id = try #require(contact["id"]?.intValue)
                    let emails =
                        try await phone.api(.get, "/api/contacts/\(id)/contactfields")["data"]?.arrayValue?
                        .compactMap { $0["content"]?.stringValue } ?? []
                    for email in sent.emails where email.value.unicodeScalars.count <= 255 {
                        #expect(emails.contains(email.value), "\(file): \(email.value) not among \(emails)")
                    }

                    // Changed on the web: Kith writes the card, with everything it could not store.
                    _ = try await phone.api(.post, "/api/notes", #"{"contact_id":\#(id),"body":"Seen on the web"}"#)
                    let (text, _) = try await phone.get(path)
                    let served = try #require(try ContactCard.parse(text).first)
                    #expect(served.uid == sent.uid)
                    for line in sent.unknown {
                        #expect(
                            served.unknown.contains {
                                $0.name == line.name && $0.value == line.value && $0.group == line.group
                            },
                            "\(file): \(line.name) was lost:\n\(text)")
                    }
                    #expect(served.urls.map(\.value) == sent.urls.map(\.value), "\(file): URLs")
                    #expect(served.note?.contains("Seen on the web") == true)
                }
            }
            #expect(index >= 7, "every card of every file was sent (\(index))")
        }
    }

    @Test(arguments: Engine.available)
    func everyAppsTasksBecomeRemindersOrAreRefusedWithASentence(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            // Each app's task, on a day before it is due (the fixtures were written years ago), in
            // the order of those days: the server's clock only moves forward.
            let cases: [(file: String, day: String, refusal: String?, kept: [String])] = [
                ("davx5-todo-most-fields.ics", "2009-12-31", "title", []),
                ("thunderbird-todo.ics", "2013-08-31", nil, []),
                ("nextcloud-weekly-todo.ics", "2024-01-07", nil, ["X-OC-HIDESUBTASKS"]),
                ("tasks-org-subtask.ics", "2024-03-08", nil, ["RELATED-TO"]),
                ("ios-reminder.ics", "2024-03-14", nil, ["X-APPLE-SORT-ORDER"]),
            ]
            let firstDay = try #require(LocalDate(cases[0].day))
            server.clock.set(to: try #require(Self.noon(firstDay)))
            let (parent, _, _, _, _) = try await CalDAVTests.family(client, server)
            for (index, fixture) in cases.enumerated() {
                let day = try #require(LocalDate(fixture.day))
                server.clock.set(to: try #require(Self.noon(day)))
                let body = try Self.fixture(fixture.file)
                let path = parent.calendar + "task\(index).ics"
                let answer = try await parent.put(path, body, ifNoneMatch: "*")
                if let refusal = fixture.refusal {
                    #expect(
                        answer.status == .forbidden && answer.text.contains(refusal), "\(fixture.file): \(answer.text)")
                    continue
                }
                #expect(answer.status == .created, "\(fixture.file): \(answer.status) \(answer.text)")
                let sent = try #require(try CalendarDocument.parse(body).tasks.first)
                let (text, _) = try await parent.get(path)
                let served = try #require(try CalendarDocument.parse(text).tasks.first)
                #expect(served.uid == sent.uid && served.summary == sent.summary, "\(fixture.file)")
                #expect(
                    served.alarms.sorted() == FamilyTaskMapping.alarms.sorted(), "\(fixture.file): the family's alarms")
                #expect(served.status == (sent.status == .completed ? .completed : .needsAction), "\(fixture.file)")
                for name in fixture.kept {
                    #expect(text.contains("\r\n" + name), "\(fixture.file): \(name) was lost:\n\(text)")
                }
            }
        }
    }
}
