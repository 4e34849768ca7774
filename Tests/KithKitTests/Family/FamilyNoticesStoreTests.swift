import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithKit

/// Issue 17 on a device: the window of upcoming notices an app schedules locally, snoozing under
/// the family's limit, and location readings judged by `MovementRule`, all offline.
@Suite("Family store: notices, snooze, location")
@MainActor
struct FamilyNoticesStoreTests {
    typealias F = FamilyFixture
    nonisolated static let hour: TimeInterval = 3600

    /// `user`'s device, having pulled the family, on a clock the test moves.
    static func member(_ user: UUID, _ clock: TestClock) throws -> FamilyStore {
        try F.member(user, now: { clock.now })
    }

    @Test func theWindowHoldsTheNext64NoticesOfMyPendingRemindersEarliestFirst() throws {
        let clock = TestClock(F.noon)
        let ada = try Self.member(F.ada, clock)
        // Twenty of Ada's own, an hour apart: 80 notices, more than a phone keeps.
        let hourly = try (1...20).map {
            try ada.addReminder(title: "Task \($0)", dueAt: F.noon + Double($0) * Self.hour)
        }
        // Due in 90 s: its 3- and 2-minute notices are already past.
        let soon = try ada.addReminder(title: "Soon", dueAt: F.noon + 90)
        let cleos = try ada.addReminder(title: "Cleo's", dueAt: F.noon + 1800, assignee: F.cleo.lowercased)
        let done = try ada.addReminder(title: "Done", dueAt: F.noon + 600)
        try ada.complete(done.id)

        let window = ada.upcomingNotices
        #expect(window.count == NoticeWindow.size)
        #expect(window.map(\.at) == window.map(\.at).sorted(), "earliest first")
        #expect(window.allSatisfy { $0.at > F.noon }, "none in the past")
        #expect(window.allSatisfy { $0.recipients == [F.ada.lowercased] })
        #expect(!window.contains { $0.reminder == cleos.id || $0.reminder == done.id }, "not others', not completed")
        #expect(
            window.prefix(2).map(\.kind) == [.before1, .due] && window.prefix(2).allSatisfy { $0.reminder == soon.id })
        // Soon's 2, then 15 hourly reminders' 4, then the 16th's first 2.
        #expect(window.last?.reminder == hourly[15].id && window.last?.kind == .before2)

        try ada.complete(hourly[0].id)
        #expect(!ada.upcomingNotices.contains { $0.reminder == hourly[0].id }, "a completion takes its notices out")
        #expect(ada.upcomingNotices.count == NoticeWindow.size && ada.upcomingNotices.last?.reminder == hourly[16].id)

        clock.advance(by: 60)
        ada.refresh()
        #expect(ada.upcomingNotices.first?.kind == .due, "the 1-minute notice passed")

        clock.advance(by: 60)
        try ada.snooze(soon.id, minutes: 10)
        let snoozed = ada.upcomingNotices.filter { $0.reminder == soon.id }
        #expect(snoozed.map(\.kind) == [.snoozed] && snoozed.first?.at == clock.now + 600, "\(snoozed)")
    }

    @Test func snoozingIsTheAssigneesOnceDueUpToTheFamilysLimit() async throws {
        let clock = TestClock(F.noon)
        let cleo = try Self.member(F.cleo, clock)
        let homework = try cleo.addReminder(title: "Homework", dueAt: F.noon + 60)
        let early = await expectKithError { try cleo.snooze(homework.id) }
        #expect(early?.userMessage == "A reminder is snoozed once it is due.")

        clock.advance(by: 120)
        #expect(await expectKithError { try cleo.snooze(homework.id, minutes: 0) }?.field == "snoozedUntil")
        #expect(cleo.family?.snoozeLimit == FamilyLimits.defaultSnoozeLimit)
        for count in 1...3 {
            let snoozed = try cleo.snooze(homework.id, minutes: 5)
            #expect(snoozed.snoozeCount == Int64(count) && snoozed.snoozedUntil == clock.now + 300)
            clock.advance(by: 300)
        }
        let pending = cleo.pendingChanges
        let refused = await expectKithError { try cleo.snooze(homework.id) }
        #expect(refused?.identifier == "snooze_limit")
        #expect(refused?.userMessage == "This reminder was snoozed 3 times, the family's limit.")
        #expect(try cleo.reminder(homework.id)?.snoozeCount == 3 && cleo.pendingChanges == pending, "nothing written")

        let ada = try Self.member(F.ada, clock)
        let forCleo = try ada.addReminder(title: "Tidy up", dueAt: clock.now + 60, assignee: F.cleo.lowercased)
        clock.advance(by: 120)
        let notHers = await expectKithError { try ada.snooze(forCleo.id) }
        #expect(notHers?.userMessage == "Only the person the reminder is for can snooze it.")
    }

    @Test func readingsAreSentOrStopTrackingByDistanceFromThePlace() async throws {
        let clock = TestClock(F.noon)
        let cleo = try Self.member(F.cleo, clock)
        let walk = try cleo.addReminder(title: "Walk the dog", dueAt: F.noon + Self.hour)
        #expect(
            await expectKithError { try cleo.report(Self.home, accuracy: 5, for: walk.id) }?.identifier == "not_tracked"
        )

        let placed = try cleo.setLocation(walk.id, point: Self.home, accuracy: 8)
        #expect(placed.location == ReminderLocation(point: Self.home, accuracy: 8, capturedAt: F.noon, tracking: true))
        let pending = cleo.pendingChanges
        #expect(try cleo.report(Self.north(of: Self.home, 25), accuracy: 50, for: walk.id) == .ignored)
        guard case .unchanged = try cleo.report(Self.north(of: Self.home, 3), accuracy: 5, for: walk.id) else {
            Issue.record("3 m away is no change")
            return
        }
        #expect(try cleo.reminder(walk.id) == placed && cleo.pendingChanges == pending, "nothing written")

        // Walking away in steps of 11, 17, 17 and 17 m: the place stays; 28 m from it alerts.
        clock.advance(by: 60)
        guard case .updated(let first) = try cleo.report(Self.north(of: Self.home, 11), accuracy: 5, for: walk.id) else {
            Issue.record("11 m away is sent")
            return
        }
        #expect(abs(first - 11) < 0.01)
        let walking = try #require(try cleo.reminder(walk.id))
        #expect(walking.location?.point == Self.home && walking.location?.lastReading == Self.north(of: Self.home, 11))
        #expect(walking.movedAt == nil)

        clock.advance(by: 60)
        guard case .moved(let away) = try cleo.report(Self.north(of: Self.home, 28), accuracy: 5, for: walk.id) else {
            Issue.record("28 m from the place is a movement")
            return
        }
        #expect(abs(away - 28) < 0.01)
        let left = try #require(try cleo.reminder(walk.id))
        #expect(left.movedAt == clock.now && left.location?.tracking == false && left.location?.point == Self.home)
        let stopped = await expectKithError { try cleo.report(Self.north(of: Self.home, 45), accuracy: 5, for: walk.id) }
        #expect(stopped?.identifier == "not_tracked", "tracking stopped")
    }

    nonisolated static let home = GeoPoint(latitude: 52.520008, longitude: 13.404954)!

    /// The point `metres` due north of `point`: along a meridian the haversine distance is the arc.
    nonisolated static func north(of point: GeoPoint, _ metres: Double) -> GeoPoint {
        GeoPoint(latitude: point.latitude + metres / GeoPoint.earthRadius * 180 / .pi, longitude: point.longitude)!
    }
}
