import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithKit

/// Daily and monthly repeats on a device: made with a `ReminderSchedule`, completed one occurrence
/// at a time by the rule, changed and stopped with `setSchedule`, under the same rules as the server.
@Suite("Family store: repeats")
@MainActor
struct FamilyScheduleTests {
    typealias F = FamilyFixture

    static func day(_ text: String) -> LocalDate { LocalDate(text)! }
    static let half7 = LocalTime(hour: 7, minute: 30)!

    @Test func aMonthlyRepeatMovesToTheNextMonthAndIsChangedToDailyThenStopped() async throws {
        let ada = try F.member(F.ada)
        let lastFriday = ReminderSchedule(
            .monthlyOnWeekday(MonthlyWeekday(ordinal: -1, weekday: .friday)!), start: Self.day("2026-11-25"),
            time: Self.half7)
        let reminder = try ada.addReminder(title: "Pay pocket money", assignee: F.cleo.lowercased, schedule: lastFriday)
        #expect(reminder.dueAt == FamilyStoreTests.utc("2026-11-27T06:30:00Z"), "the last Friday of November")
        #expect(reminder.recurrence?.summary == "Every month on the last Friday at 07:30")
        #expect(try ada.complete(reminder.id).dueAt == FamilyStoreTests.utc("2026-12-25T06:30:00Z"))

        let everyOtherDay = ReminderSchedule(.daily, interval: 2, start: Self.day("2026-11-25"), time: Self.half7)
        let daily = try ada.setSchedule(reminder.id, everyOtherDay)
        #expect(
            daily.repeatRule == "FREQ=DAILY;INTERVAL=2" && daily.dueAt == FamilyStoreTests.utc("2026-11-25T06:30:00Z"))
        #expect(try ada.complete(reminder.id).dueAt == FamilyStoreTests.utc("2026-11-27T06:30:00Z"))
        let once = try ada.setSchedule(reminder.id, nil)
        #expect(once.recurrence == nil && once.dueAt == FamilyStoreTests.utc("2026-11-27T06:30:00Z"))
        #expect(try ada.complete(reminder.id).status == .completed, "a one-off now")
    }

    @Test func aScheduleKithCannotCountOrAChildMayNotChangeIsRefusedAndNothingIsWritten() async throws {
        let ada = try F.member(F.ada)
        let before = ada.pendingChanges
        let noSuchDay = await expectKithError {
            try ada.addReminder(
                title: "X",
                schedule: ReminderSchedule(.monthlyOnDay(32), start: Self.day("2026-11-25"), time: Self.half7))
        }
        #expect(
            noSuchDay?.field == "repeatMonthDay" && noSuchDay?.userMessage == "Choose a day of the month from 1 to 31.")
        let tooOften = await expectKithError {
            try ada.addReminder(
                title: "X",
                schedule: ReminderSchedule(.daily, interval: 366, start: Self.day("2026-11-25"), time: Self.half7))
        }
        #expect(tooOften?.field == "repeatInterval" && tooOften?.userMessage == "Repeat every 1 to 365 days.")
        #expect(ada.pendingChanges == before)
    }

    @Test func completingWithItemsNotTickedAsksFirstThenKeepsWhatWasLeft() async throws {
        let cleo = try F.member(F.cleo)
        let groceries = try cleo.addReminder(
            title: "Groceries", dueAt: FamilyStoreTests.tomorrow, items: ["Milk", "Bread", "Eggs"])
        try cleo.setItem(groceries.checklist[2].id, of: groceries.id, done: true)
        let before = cleo.pendingChanges
        let asked = await expectKithError { try cleo.complete(groceries.id) }
        #expect(asked?.identifier == "unticked_items")
        #expect(asked?.userMessage == "2 items are not ticked: Milk, Bread. Complete anyway?")
        #expect(try cleo.reminder(groceries.id)?.unticked.map(\.text) == ["Milk", "Bread"])
        #expect(cleo.pendingChanges == before, "asking writes nothing")
        let done = try cleo.complete(groceries.id, evenIfUnticked: true)
        #expect(done.status == .completed && done.completedUnticked == ["Milk", "Bread"])
    }
}
