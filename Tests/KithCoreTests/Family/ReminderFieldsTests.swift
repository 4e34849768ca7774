import Foundation
import KithCore
import Testing

/// What completing a reminder writes, the same on devices and on the web pages.
@Suite("Reminder fields")
struct ReminderFieldsTests {
    typealias Rules = FamilyRulesTests
    static let paris = TimeZone(identifier: "Europe/Paris")!

    static func reminder(repeating: Bool) throws -> (FamilyReminder, Recurrence?) {
        let recurrence =
            repeating
            ? try Recurrence.weekly(
                [.monday], interval: 2, start: try #require(LocalDate("2026-11-30")),
                time: try #require(LocalTime("07:30")), timeZone: paris
            ).get()
            : nil
        var fields = Rules.reminder(creator: Rules.parent, assignee: Rules.child)
        fields["dueAt"] = .string("2026-11-30T06:30:00.000Z")  // 07:30 in Paris
        fields.merge(ReminderFields.repeating(recurrence).filter { $0.value != .null }) { _, new in new }
        let id = UUID()
        let items = [("Scales", true), ("Etude", false)].enumerated().compactMap { position, line in
            ChecklistItem(
                id: UUID(),
                fields: [
                    "reminderId": .string(id.lowercased), "text": .string(line.0), "done": .bool(line.1),
                    "position": .int(Int64(position)),
                ])
        }
        let reminder = try #require(FamilyReminder(id: id, fields: fields, checklist: items, timeZone: paris))
        return (reminder, recurrence)
    }

    /// `reminder` as `fields` leave it.
    static func changed(_ reminder: FamilyReminder, _ fields: [String: JSONTree], recurrence: Recurrence?) throws
        -> FamilyReminder
    {
        var all = Rules.reminder(creator: reminder.creatorId, assignee: reminder.assigneeId)
        all["dueAt"] = ReminderFields.timestamp(reminder.dueAt)
        all.merge(ReminderFields.repeating(recurrence).filter { $0.value != .null }) { _, new in new }
        for (name, value) in fields { all[name] = value }
        return try #require(
            FamilyReminder(id: reminder.id, fields: all, checklist: reminder.checklist, timeZone: paris))
    }

    @Test func aRepeatingReminderMovesToItsNextOccurrenceWithItsChecklistUnticked() throws {
        let (reminder, recurrence) = try Self.reminder(repeating: true)
        let done = try ReminderFields.completion(of: reminder, recurrence: recurrence, by: Rules.child, at: Rules.now)
            .get()
        #expect(done.reminder["dueAt"] == .string("2026-12-14T06:30:00.000Z"), "two weeks later, 07:30 in Paris")
        #expect(done.reminder["status"] == nil, "still pending")
        #expect(done.reminder["completedBy"] == .string(Rules.child))
        #expect(done.reminder["completedDueAt"] == .string("2026-11-30T06:30:00.000Z"), "the occurrence done")
        #expect(done.untick == reminder.checklist.filter(\.done).map(\.id) && done.untick.count == 1)
    }

    @Test func anyOtherReminderIsCompletedWithItsChecklistAsItWas() throws {
        let (reminder, _) = try Self.reminder(repeating: false)
        let done = try ReminderFields.completion(of: reminder, recurrence: nil, by: Rules.child, at: Rules.now).get()
        #expect(done.reminder["status"] == .string("completed") && done.reminder["dueAt"] == nil)
        #expect(done.reminder["completedDueAt"] == .string("2026-11-30T06:30:00.000Z"), "its own due time")
        #expect(done.untick.isEmpty && done.nextDue == nil)
    }

    @Test func undoingMakesTheCompletedOccurrenceDueAgain() throws {
        for repeating in [false, true] {
            let (reminder, recurrence) = try Self.reminder(repeating: repeating)
            let done = try ReminderFields.completion(
                of: reminder, recurrence: recurrence, by: Rules.child, at: Rules.now
            ).get()
            let completed = try Self.changed(reminder, done.reminder, recurrence: recurrence)
            #expect(completed.completedDueAt == reminder.dueAt)
            let undo = try ReminderFields.undoCompletion(of: completed).get()
            #expect(undo["status"] == .string("pending"))
            #expect(undo["completedBy"] == .null && undo["completedAt"] == .null && undo["completedDueAt"] == .null)
            let undone = try Self.changed(completed, undo, recurrence: recurrence)
            #expect(undone.status == .pending && undone.completedBy == nil && undone.completedAt == nil)
            #expect(undone.dueAt == reminder.dueAt, repeating ? "back to the occurrence done" : "unchanged")
        }
        let (pending, _) = try Self.reminder(repeating: false)
        #expect(throws: APIErrorDetail.self, "nothing to undo") { try ReminderFields.undoCompletion(of: pending).get() }
    }
}
