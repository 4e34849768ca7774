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

    @Test func readingsAreJudgedByAccuracyThenDistanceFromThePlace() {
        #expect(MovementRule.judge(Self.north(100), accuracy: 50, place: Self.home) == .ignored, "not accurate enough")
        #expect(MovementRule.judge(Self.north(100), accuracy: .nan, place: Self.home) == .ignored)
        #expect(MovementRule.judge(Self.north(100), accuracy: -1, place: Self.home) == .ignored)
        guard case .unchanged(let near) = MovementRule.judge(Self.north(4), accuracy: 5, place: Self.home) else {
            Issue.record("4 m is no move")
            return
        }
        #expect(abs(near - 4) < 0.01)
        guard case .updated = MovementRule.judge(Self.north(6), accuracy: 20, place: Self.home) else {
            Issue.record("6 m from the place, no reading sent yet: sent")
            return
        }
        guard case .unchanged = MovementRule.judge(Self.north(9), accuracy: 10, place: Self.home, lastSent: Self.north(6)) else {
            Issue.record("3 m from the last reading sent: not sent again")
            return
        }
        guard case .moved(let far) = MovementRule.judge(Self.north(20.001), accuracy: 10, place: Self.home, lastSent: Self.north(16))
        else {
            Issue.record("20 m from the place is a movement, however small the last step")
            return
        }
        #expect(abs(far - 20) < 0.01)
    }

    /// Walking away in steps of 11, 17, 17 and 17 m: the place stays where it was set, so the
    /// second step (28 m from it) alerts, and tracking stops there.
    @Test func aWalkAwayInStepsAlertsOnceTwentyMetresFromThePlace() throws {
        var fields = Rules.reminder(creator: Rules.parent, assignee: Rules.child)
        fields.merge(ReminderFields.location(Self.home, accuracy: 5, at: Rules.now)) { $1 }
        var outcomes: [MovementRule.Outcome] = []
        for metres in [11.0, 28, 45, 62] {
            let reminder = try #require(FamilyReminder(id: UUID(), fields: fields, checklist: [], timeZone: .gmt))
            guard let reading = ReminderFields.reading(Self.north(metres), accuracy: 5, at: Rules.now, for: reminder) else {
                break  // no longer tracked
            }
            outcomes.append(reading.outcome)
            fields.merge(reading.fields) { $1 }
            #expect(ReminderLocation(fields: fields)?.point == Self.home, "the place never moves with a reading")
        }
        #expect(outcomes.count == 2, "tracking stops at the alert: \(outcomes)")
        guard case .updated(let first) = outcomes.first, case .moved(let second) = outcomes.last else {
            Issue.record("11 m is sent, 28 m alerts: \(outcomes)")
            return
        }
        #expect(abs(first - 11) < 0.01 && abs(second - 28) < 0.01)
        #expect(fields["movedAt"] != nil && fields["tracking"] == .bool(false))
    }

    @Test func aMovementIsTheAssigneesAndComesWithAFarReading() {
        var placed = Rules.reminder(creator: Rules.parent, assignee: Rules.child)
        placed.merge(ReminderFields.location(Self.home, accuracy: 5, at: Rules.now)) { $1 }
        let current = Rules.record(FamilyEntities.reminder, placed)
        func reading(_ metres: Double) -> [String: JSONTree] {
            ["readingLatitude": .double(Self.north(metres).latitude), "readingLongitude": .double(Self.north(metres).longitude)]
        }
        let moved = reading(25).merging(["movedAt": .string("2026-11-24T12:00:00.000Z"), "tracking": .bool(false)]) { $1 }
        #expect(Rules.problem(Rules.child, .upsert, moved, current: current) == nil)
        #expect(Rules.problem(Rules.parent, .upsert, moved, current: current)?.code == "not_allowed", "a parent is not there")
        #expect(Rules.problem(Rules.parent, .upsert, reading(8), current: current)?.code == "not_allowed")
        let tooNear = reading(12).merging(["movedAt": .string("2026-11-24T12:00:00.000Z"), "tracking": .bool(false)]) { $1 }
        #expect(Rules.problem(Rules.child, .upsert, tooNear, current: current)?.field == "movedAt")
        let noReading: [String: JSONTree] = ["movedAt": .string("2026-11-24T12:00:00.000Z"), "tracking": .bool(false)]
        #expect(Rules.problem(Rules.child, .upsert, noReading, current: current)?.field == "movedAt")
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
