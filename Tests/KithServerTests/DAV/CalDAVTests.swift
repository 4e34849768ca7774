import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// A family's reminders as each member's CalDAV task calendar (docs/dav.md), on every engine:
/// the phone shows them with their alarms, a task written there is a reminder under the Family
/// rules, and what the rules refuse is a 403 with their sentence and changes nothing.
@Suite("CalDAV")
struct CalDAVTests {
    /// A family of a parent (Marie) and a child (Irène), each with a phone, in Europe/Paris.
    static func family(_ client: any TestClientProtocol, _ server: TestServer) async throws
        -> (parent: DAVPhone, child: DAVPhone, parentID: String, childID: String, scope: String)
    {
        let (marie, irene, family) = try await FamilyCalls.parentAndChild(client, server)
        let parent = try await DAVPhone.make(
            marie.email, client,
            session: try await client.logIn(marie.email, "correct horse").decode(AuthSessionResponse.self))
        let child = try await DAVPhone.make(
            irene.email, client,
            session: try await client.logIn(irene.email, "correct horse").decode(AuthSessionResponse.self))
        return (parent, child, marie.userID, irene.userID, family.scope)
    }

    /// `yyyyMMdd'T'HHmmss` on Paris's clock, `days` after the test clock's now at `hour`:00.
    static func parisTime(_ server: TestServer, days: Int, hour: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
        let day = calendar.date(byAdding: .day, value: days, to: server.clock.now)!
        let parts = calendar.dateComponents([.year, .month, .day], from: day)
        return String(format: "%04d%02d%02dT%02d0000", parts.year!, parts.month!, parts.day!, hour)
    }

    static func task(_ uid: String, _ summary: String, due: String?, lines: [String] = []) -> String {
        ([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Phone//EN", "BEGIN:VTODO", "UID:\(uid)",
            "DTSTAMP:20261101T000000Z",
            "SUMMARY:\(summary)",
        ] + (due.map { ["DUE;TZID=Europe/Paris:\($0)"] } ?? []) + lines
            + ["END:VTODO", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    static func reminders(_ client: any TestClientProtocol, _ phone: DAVPhone) async throws -> [ChangeDTO] {
        let pulled = try await client.call(.get, "/v1/sync/pull", token: phone.bearer).decode(PullResponse.self)
        return pulled.changes.filter { $0.entity == FamilyEntities.reminder.name && !$0.deleted }
    }

    @Test(arguments: Engine.available)
    func aTaskFromThePhoneIsAReminderWithTheFamilysAlarms(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let (parent, child, parentID, _, _) = try await Self.family(client, server)
            let due = Self.parisTime(server, days: 1, hour: 18)
            let body = Self.task(
                "bins-1", "Take out the bins", due: due,
                lines: ["RRULE:FREQ=WEEKLY;BYDAY=MO,TH", #"DESCRIPTION:[ ] green bin\n[x] black bin"#, "PRIORITY:5"])
            let made = try await parent.put(parent.calendar + "bins.ics", body, ifNoneMatch: "*")
            #expect(made.status == .created, "\(made.text)")

            let reminders = try await Self.reminders(client, parent)
            let reminder = try #require(reminders.first)
            #expect(reminders.count == 1)
            #expect(reminder.fields[ReminderFields.title] == "Take out the bins")
            #expect(reminder.fields[ReminderFields.creatorId]?.stringValue == parentID)
            #expect(reminder.fields[ReminderFields.assigneeId]?.stringValue == parentID, "a task is the writer's own")

            // Every member's phone shows it, in the family's zone, with the alarms.
            let listed = try await child.syncCollection(child.calendar, token: "", data: "cal:calendar-data")
            let text = try #require(listed.members.first?.found["calendar-data"])
            for line in [
                "UID:bins-1", "SUMMARY:Take out the bins", "DUE;TZID=Europe/Paris:\(due)",
                "RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,TH;WKST=MO", #"DESCRIPTION:[ ] green bin\n[x] black bin"#,
                "STATUS:NEEDS-ACTION", "PRIORITY:5", "TZID:Europe/Paris", "TRIGGER;RELATED=END:-PT3M",
                "TRIGGER;RELATED=END:-PT2M", "TRIGGER;RELATED=END:-PT1M", "TRIGGER;RELATED=END:PT0S",
            ] {
                #expect(text.contains(line + "\r\n"), "\(line) missing from\n\(text)")
            }
            let checklist = try await client.call(.get, "/v1/sync/pull", token: parent.bearer).decode(PullResponse.self)
                .changes.filter { $0.entity == FamilyEntities.checklistItem.name }
            #expect(
                Set(checklist.compactMap { $0.fields[ReminderFields.text]?.stringValue }) == ["green bin", "black bin"])
            #expect(
                checklist.first { $0.fields[ReminderFields.text] == "black bin" }?.fields[ReminderFields.done] == true)
        }
    }

    @Test(arguments: Engine.available)
    func completingOnThePhoneFollowsTheFamilyRules(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let (parent, child, parentID, childID, scope) = try await Self.family(client, server)
            let due = server.clock.now.addingTimeInterval(86_400)
            // A parent asks the child to practise the piano, and sets themself a task.
            let piano = try await server.app.operations.apply(
                ReminderOperations.create(
                    FamilyReminderInput(title: "Piano", dueAt: due, assigneeId: childID), in: scope), userID: parentID)
            let taxes = try await server.app.operations.apply(
                ReminderOperations.create(
                    FamilyReminderInput(title: "Taxes", dueAt: due, assigneeId: parentID), in: scope), userID: parentID)
            let pianoPath = child.calendar + piano.id.lowercased + ".ics"
            let taxesPath = child.calendar + taxes.id.lowercased + ".ics"
            let (pianoTask, pianoTag) = try await child.get(pianoPath)

            // The child may not reword what a parent asked: 403 with the rule's sentence, nothing changes.
            let reworded = try await child.put(
                pianoPath, pianoTask.replacingOccurrences(of: "SUMMARY:Piano", with: "SUMMARY:No piano"),
                ifMatch: pianoTag)
            #expect(reworded.status == .forbidden && reworded.text.contains("Only a parent"), "\(reworded.text)")
            #expect(
                try await Self.reminders(client, parent).first { $0.id == piano.id }?.fields[ReminderFields.title]
                    == "Piano")

            // Nor complete a parent's own task.
            let (taxesTask, taxesTag) = try await child.get(taxesPath)
            let notTheirs = try await child.put(
                taxesPath, taxesTask.replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED"),
                ifMatch: taxesTag)
            #expect(notTheirs.status == .forbidden, "\(notTheirs.text)")
            #expect(
                try await Self.reminders(client, parent).first { $0.id == taxes.id }?.fields[ReminderFields.status]
                    == "pending")

            // But the child completes their own, and everyone's phone sees it done.
            let done = try await child.put(
                pianoPath, pianoTask.replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED"),
                ifMatch: pianoTag)
            #expect(done.status == .noContent, "\(done.text)")
            let completed = try #require(try await Self.reminders(client, parent).first { $0.id == piano.id })
            #expect(completed.fields[ReminderFields.status] == "completed")
            #expect(completed.fields[ReminderFields.completedBy]?.stringValue == childID)
            let (seen, _) = try await parent.get(parent.calendar + piano.id.lowercased + ".ics")
            #expect(seen.contains("STATUS:COMPLETED\r\n") && seen.contains("COMPLETED:"), "\(seen)")
            // The old tag no longer writes.
            let stale = try await child.put(pianoPath, pianoTask, ifMatch: pianoTag)
            #expect(stale.status == .preconditionFailed)

            // Deleting is for the creator or a parent.
            let (_, tag) = try await child.get(taxesPath)
            let deletion = try await child.send("DELETE", taxesPath, headers: [.ifMatch: try #require(tag)])
            #expect(deletion.status == .forbidden, "\(deletion.text)")
            #expect(
                try await parent.send("DELETE", parent.calendar + taxes.id.lowercased + ".ics").status == .noContent)
            #expect(try await Self.reminders(client, parent).contains { $0.id == taxes.id } == false)
        }
    }

    @Test(arguments: Engine.available)
    func whatAReminderCannotBeIsRefusedWithASentence(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let (parent, _, _, _, _) = try await Self.family(client, server)
            let tomorrow = Self.parisTime(server, days: 1, hour: 9)
            let cases: [(String, String)] = [
                (Self.task("past", "Yesterday", due: Self.parisTime(server, days: -1, hour: 9)), "future"),
                (Self.task("none", "Someday", due: nil), "due date"),
                // Repeats Kith cannot count: twice a month, a yearly one, a counted one.
                (Self.task("twice", "Rent", due: tomorrow, lines: ["RRULE:FREQ=MONTHLY;BYMONTHDAY=1,15"]), "months"),
                (Self.task("yearly", "Taxes", due: tomorrow, lines: ["RRULE:FREQ=YEARLY"]), "cannot be kept"),
                (Self.task("counted", "Pills", due: tomorrow, lines: ["RRULE:FREQ=DAILY;COUNT=5"]), "days"),
                (
                    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:e\r\nDTSTART:20301101T100000Z\r\nSUMMARY:Party\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
                    "supported-calendar-component"
                ),
            ]
            for (index, (body, words)) in cases.enumerated() {
                let answer = try await parent.put(parent.calendar + "case\(index).ics", body)
                #expect(
                    answer.status == .forbidden && answer.text.contains(words),
                    "case \(index): \(answer.status) \(answer.text)")
            }
            let garbage = try await parent.put(parent.calendar + "garbage.ics", "BEGIN:VCALENDAR\r\nnonsense")
            #expect(garbage.status == .badRequest, "\(garbage.text)")
            #expect(try await Self.reminders(client, parent).isEmpty)

            // Someone in no family has no calendar to write to.
            let loner = try await DAVPhone.make("loner@example.com", client)
            let home = try await loner.propfind("/dav/calendars/\(loner.userID)/", depth: "1", "<d:resourcetype/>")
            #expect(home.members.count == 1, "the home alone: \(home.hrefs)")
            #expect(
                try await loner.put(loner.calendar + "x.ics", Self.task("x", "X", due: tomorrow)).status == .notFound)
        }
    }

    @Test(arguments: Engine.available)
    func queriesByTimeRangeAndSyncsOnlyWhatChanged(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let (parent, child, parentID, _, scope) = try await Self.family(client, server)
            for (uid, days) in [("soon", 1), ("later", 10)] {
                let answer = try await parent.put(
                    parent.calendar + uid + ".ics",
                    Self.task(uid, uid, due: Self.parisTime(server, days: days, hour: 12)))
                #expect(answer.status == .created, "\(answer.text)")
            }
            let start = server.clock.now
            let end = start.addingTimeInterval(3 * 86_400)
            let format = Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day().dateTimeSeparator(.standard).time(
                includingFractionalSeconds: false)
            func utc(_ date: Date) -> String {
                date.formatted(format).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
            }
            let query = try await child.report(
                child.calendar,
                """
                <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop>
                <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO">
                <c:time-range start="\(utc(start))Z" end="\(utc(end))Z"/></c:comp-filter></c:comp-filter></c:filter>
                </c:calendar-query>
                """)
            #expect(query.hrefs == [child.calendar + "soon.ics"], "\(query.hrefs)")

            let first = try await child.syncCollection(child.calendar, token: "")
            #expect(first.members.count == 2)
            let token = try #require(first.syncToken)
            // A reminder made on another surface, and one deleted there.
            let made = try await server.app.operations.apply(
                ReminderOperations.create(
                    FamilyReminderInput(
                        title: "Dentist", dueAt: start.addingTimeInterval(86_400), assigneeId: parentID),
                    in: scope), userID: parentID)
            let later = try #require(
                try await Self.reminders(client, parent).first { $0.fields[ReminderFields.title] == "later" })
            try await server.app.operations.apply(ReminderOperations.delete(later.id, in: scope), userID: parentID)
            let second = try await child.syncCollection(child.calendar, token: token)
            let byHref = Dictionary(uniqueKeysWithValues: second.members.map { ($0.href, $0) })
            #expect(Set(byHref.keys) == [child.calendar + made.id.lowercased + ".ics", child.calendar + "later.ics"])
            #expect(byHref[child.calendar + "later.ics"]?.status?.contains("404") == true)
            #expect(
                try await child.syncCollection(child.calendar, token: try #require(second.syncToken)).members.isEmpty)
        }
    }
}
