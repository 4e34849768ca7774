import Foundation
import KithCore
import Testing

@Suite("Family book")
struct FamilyBookTests {
    typealias Rules = FamilyRulesTests

    static func reminder(_ title: String, due: String, assignee: String, status: String = "pending") -> SyncRecord {
        var fields = Rules.reminder(creator: Rules.parent, assignee: assignee, status: status)
        fields["title"] = .string(title)
        fields["dueAt"] = .string(due)
        return Rules.record(FamilyEntities.reminder, fields)
    }

    @Test func remindersAreSortedByDueTimeAndFiltered() throws {
        let late = Self.reminder("Late", due: "2026-12-03T09:00:00.000Z", assignee: Rules.child)
        let soon = Self.reminder("Soon", due: "2026-12-01T09:00:00.000Z", assignee: Rules.parent)
        let done = Self.reminder("Done", due: "2026-12-02T09:00:00.000Z", assignee: Rules.child, status: "completed")
        let items = [("Second", 1), ("First", 0)].map { text, position in
            Rules.record(
                FamilyEntities.checklistItem,
                ["reminderId": .string(late.id.lowercased), "text": .string(text), "done": .bool(false), "position": .int(Int64(position))])
        }
        let book = FamilyBook(records: Rules.family + [late, soon, done] + items)
        #expect(book.name == "Curie" && book.timeZone.identifier == "Europe/Paris")
        #expect(book.members.map(\.role) == [.parent, .parent, .child, .child], "parents first")
        #expect(book.reminders.map(\.title) == ["Soon", "Done", "Late"], "due first")
        #expect(book.reminders.last?.checklist.map(\.text) == ["First", "Second"])

        let child = Rules.child
        #expect(book.reminders(ReminderFilter(assignee: .me), viewer: child).map(\.title) == ["Done", "Late"])
        #expect(book.reminders(ReminderFilter(status: .pending, assignee: .me), viewer: child).map(\.title) == ["Late"])
        #expect(book.reminders(ReminderFilter(assignee: .others), viewer: child).map(\.title) == ["Soon"])
        #expect(book.reminders(ReminderFilter(assignee: .member(Rules.parent)), viewer: child).map(\.title) == ["Soon"])
        let until = try #require(WireCoding.parseTimestamp("2026-12-02T09:00:00.000Z"))
        #expect(book.reminders(ReminderFilter(until: until), viewer: child).map(\.title) == ["Soon"], "until is exclusive")
        #expect(book.reminders(ReminderFilter(from: until), viewer: child).map(\.title) == ["Done", "Late"])
    }

    @Test func aRepeatingReminderShowsItsRule() {
        var fields = Rules.reminder(creator: Rules.parent, assignee: Rules.child)
        fields["repeatDays"] = .string("WE,MO")
        fields["repeatInterval"] = .int(2)
        fields["repeatStart"] = .string("2026-11-30")
        fields["repeatTime"] = .string("10:00")
        let book = FamilyBook(records: Rules.family + [Rules.record(FamilyEntities.reminder, fields)])
        #expect(book.reminders.first?.repeatRule == "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;WKST=MO")
    }
}
