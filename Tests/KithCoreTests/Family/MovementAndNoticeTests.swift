import Foundation
import KithCore
import Testing

/// Seed 003's movement rule and notice plan, as devices and the server both run them.
@Suite("Movement rule and notice plan")
struct MovementAndNoticeTests {
    typealias Rules = FamilyRulesTests
    static let home = GeoPoint(latitude: 48.8566, longitude: 2.3522)!

    /// `metres` due north of home.
    static func north(_ metres: Double) -> GeoPoint {
        GeoPoint(latitude: home.latitude + metres / (Double.pi * GeoPoint.earthRadius / 180), longitude: home.longitude)!
    }

    @Test func readingsAreJudgedByAccuracyThenDistance() {
        #expect(MovementRule.judge(Self.north(100), accuracy: 50, against: Self.home) == .ignored, "not accurate enough")
        #expect(MovementRule.judge(Self.north(100), accuracy: .nan, against: Self.home) == .ignored)
        #expect(MovementRule.judge(Self.north(100), accuracy: -1, against: Self.home) == .ignored)
        guard case .unchanged(let near) = MovementRule.judge(Self.north(4), accuracy: 5, against: Self.home) else {
            Issue.record("4 m is no move")
            return
        }
        #expect(abs(near - 4) < 0.01)
        guard case .updated = MovementRule.judge(Self.north(6), accuracy: 20, against: Self.home) else {
            Issue.record("6 m updates the stored location")
            return
        }
        guard case .updated = MovementRule.judge(Self.north(19.9), accuracy: 10, against: Self.home) else {
            Issue.record("just under 20 m is an update, not an alert")
            return
        }
        guard case .moved(let far) = MovementRule.judge(Self.north(21), accuracy: 10, against: Self.home) else {
            Issue.record("21 m is a movement")
            return
        }
        #expect(abs(far - 21) < 0.01)
    }

    static func reminder(status: String = "pending", completedAt: String? = nil) -> FamilyReminder {
        var fields = Rules.reminder(creator: Rules.parent, assignee: Rules.child, status: status)
        if let completedAt { fields["completedAt"] = .string(completedAt) }
        return FamilyReminder(id: UUID(), fields: fields, checklist: [], timeZone: TimeZone(identifier: "UTC")!)!
    }

    @Test func aPendingReminderIsToldToItsAssigneeBeforeAndWhenDue() {
        let reminder = Self.reminder()
        let plan = NoticePlan.upcoming(for: reminder)
        #expect(plan.map(\.kind) == [.before3, .before2, .before1, .due])
        #expect(plan.map { reminder.dueAt.timeIntervalSince($0.at) } == [180, 120, 60, 0])
        #expect(plan.allSatisfy { $0.recipients == [Rules.child] && $0.occurrence == reminder.dueAt })
        #expect(NoticePlan.upcoming(for: Self.reminder(status: "completed")).isEmpty)
    }

    @Test func aCompletionIsToldToTheParentsThirtySecondsLater() throws {
        let done = Self.reminder(status: "completed", completedAt: "2026-11-24T12:00:00.000Z")
        let notice = try #require(NoticePlan.completion(of: done, parents: [Rules.parent, Rules.otherParent]))
        #expect(notice.at == WireCoding.parseTimestamp("2026-11-24T12:00:30.000Z"))
        #expect(notice.recipients == [Rules.parent, Rules.otherParent])
        #expect(NoticePlan.completion(of: Self.reminder(), parents: [Rules.parent]) == nil)
    }

    @Test func aPlannedNoticeStandsUntilTheReminderMovesOnIsCompletedOrDeleted() throws {
        let pending = Self.reminder()
        let due = try #require(NoticePlan.upcoming(for: pending).last)
        let before = try #require(NoticePlan.upcoming(for: pending).first)
        #expect(NoticePlan.stillStands(due, for: pending, now: pending.dueAt))
        #expect(!NoticePlan.stillStands(due, for: nil, now: pending.dueAt), "deleted")
        #expect(!NoticePlan.stillStands(due, for: Self.reminder(status: "completed"), now: pending.dueAt), "completed")
        #expect(NoticePlan.stillStands(before, for: pending, now: pending.dueAt - 170))
        #expect(!NoticePlan.stillStands(before, for: pending, now: pending.dueAt + 1), "its due time passed")

        let done = Self.reminder(status: "completed", completedAt: "2026-11-24T12:00:00.000Z")
        let told = try #require(NoticePlan.completion(of: done, parents: [Rules.parent]))
        #expect(NoticePlan.stillStands(told, for: done, now: told.at))
        #expect(!NoticePlan.stillStands(told, for: Self.reminder(), now: told.at), "undone")
    }

    /// A job rebuilds the occurrence from whole milliseconds; the reminder's time is parsed from
    /// its record's text. The two are the same time even when their last bits differ.
    @Test func aNoticeRebuiltFromMillisecondsStandsForTheTimeItWasPlannedFrom() throws {
        let done = Self.reminder(status: "completed", completedAt: "2026-11-25T05:19:59.611Z")
        let planned = try #require(NoticePlan.completion(of: done, parents: [Rules.parent]))
        let completedAt = try #require(done.completedAt)
        let rebuilt = PlannedNotice(
            reminder: planned.reminder, kind: .completion, occurrence: Date(epochMillis: completedAt.epochMillis),
            at: planned.at, recipients: [])
        #expect(rebuilt.occurrence != completedAt, "the case this guards: not the same Double")
        #expect(NoticePlan.stillStands(rebuilt, for: done, now: planned.at))
    }
}
