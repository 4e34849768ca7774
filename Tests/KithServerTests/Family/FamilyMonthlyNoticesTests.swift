import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Notices of a monthly repeat: planned by the new rule, the occurrence not done missed when the
/// next month's notices begin, and the next one told at its wall-clock time after a daylight
/// saving change (docs/family.md, "Notices").
@Suite("Family notices: monthly repeats")
struct FamilyMonthlyNoticesTests {
    @Test(arguments: Engine.available)
    func theLastSundayOfTheMonthIsToldAtItsLocalTimeAfterTheSpringChange(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: FamilyNoticesTests.configure) { server, client in
            // Monday 22 February 2027 in Paris; summer time starts on Sunday 28 March, the last of the month.
            let paris = try #require(TimeZone(identifier: "Europe/Paris"))
            func at(_ text: String) throws -> Date { try #require(WireCoding.parseTimestamp(text)) }
            server.clock.advance(by: try at("2027-02-22T11:00:00Z").timeIntervalSince(server.clock.now))
            let (parent, child, family) = try await FamilyCalls.parentAndChild(client, server)
            let lastSundays = try Recurrence.make(
                .monthlyOnWeekday(try #require(MonthlyWeekday(code: "-1SU"))), interval: 1,
                start: try #require(LocalDate("2027-02-22")), time: try #require(LocalTime("07:30")), timeZone: paris
            ).get()
            let february = try at("2027-02-28T06:30:00Z")
            #expect(lastSundays.next(after: server.clock.now) == february, "07:30 winter time (UTC+1)")
            let id = UUID()
            var device = parent.device
            let fields = ReminderFields.new(
                title: "Check the smoke alarm", dueAt: february, assignee: child.userID, creator: parent.userID,
                createdAt: server.clock.now, recurrence: lastSundays)
            let made = try await SyncAPITests.push(
                client, device,
                [device.mutation(id, .upsert, fields, scope: family.scope, entity: FamilyEntities.reminder.name)])
            #expect(made.results.map(\.status) == [.applied], "\(made.results)")

            // February's is told, and not done; 3 minutes before March's, it is missed and the
            // reminder moves on to 28 March, 07:30 summer time.
            server.clock.advance(by: february.timeIntervalSince(server.clock.now))
            let childInFebruary = try await child.signedInAgain(client, server)
            try await eventually { try await FamilyNoticesTests.kinds(client, childInFebruary).last == .due }
            let march = try at("2027-03-28T05:30:00Z")
            server.clock.advance(by: march.addingTimeInterval(-181).timeIntervalSince(server.clock.now))
            try await server.app.jobsCaughtUp()
            let parentInMarch = try await parent.signedInAgain(client, server)
            #expect(
                try await FamilyNoticesTests.inbox(client, parentInMarch).notices.isEmpty,
                "not missed before the next one's notices begin")
            server.clock.advance(by: 1)
            try await eventually {
                try await FamilyNoticesTests.inbox(client, parentInMarch).notices.map(\.kind) == [.missed]
            }
            let toParent = try #require(
                try await FamilyNoticesTests.inbox(client, parentInMarch, query: "?timeZone=Europe/Paris").notices.first
            )
            #expect(toParent.body == "It was due at 07:30 and was not done. Next: Sun 07:30.", "\(toParent.body)")
            let stored = try await SyncAPITests.pull(client, parentInMarch.device).changes.last { $0.id == id }
            #expect(stored?.fields["dueAt"] == .string("2027-03-28T05:30:00.000Z"), "an hour earlier in UTC")

            // March's occurrence: 3, 2 and 1 minutes before and at 07:30 summer time.
            let childInMarch = try await child.signedInAgain(client, server)
            for minute in [28.0, 29, 30] {
                server.clock.advance(
                    by: try at("2027-03-28T05:00:00Z").addingTimeInterval(minute * 60).timeIntervalSince(
                        server.clock.now))
                try await server.app.jobsCaughtUp()
            }
            try await eventually {
                try await FamilyNoticesTests.inbox(client, childInMarch).notices.filter { $0.occurrence == march }.count
                    == 4
            }
            let told = try await FamilyNoticesTests.inbox(client, childInMarch, query: "?timeZone=Europe/Paris").notices
                .filter { $0.occurrence == march }
            #expect(told.map(\.kind) == [.due, .before1, .before2, .before3] && told.allSatisfy { !$0.late })
            #expect(told.first?.body == "Due now (07:30).")
        }
    }
}
