import Foundation
import KithCore

/// "Every `interval` weeks on `weekdays` at `time`, from `start`": a repeating reminder as a person
/// picks it. It is counted in the family's time zone (`WeeklyRecurrence`).
public struct ReminderSchedule: Sendable, Equatable {
    public var weekdays: Set<Weekday>
    public var interval: Int
    public var start: LocalDate
    public var time: LocalTime

    public init(weekdays: Set<Weekday>, interval: Int = 1, start: LocalDate, time: LocalTime) {
        self.weekdays = weekdays
        self.interval = interval
        self.start = start
        self.time = time
    }

    /// The occurrences in `timeZone`, or why there can be none (no weekday, interval outside 1...52).
    func recurrence(in timeZone: TimeZone) throws -> WeeklyRecurrence {
        switch WeeklyRecurrence.make(
            weekdays: weekdays, interval: interval, start: start, time: time, timeZone: timeZone)
        {
        case .success(let recurrence): return recurrence
        case .failure(let problem): throw KithError.invalid(problem)
        }
    }
}

/// The fields of `family.reminder` and `family.checklistItem` records, as `FamilyStore` writes them.
enum ReminderFields {
    static func new(
        title: String, dueAt: Date, assignee: String, creator: String, createdAt: Date, schedule: ReminderSchedule?
    ) -> [String: JSONTree] {
        var fields: [String: JSONTree] = [
            "title": .string(title.trimmingCharacters(in: .whitespacesAndNewlines)),
            "dueAt": timestamp(dueAt),
            "assigneeId": .string(assignee.lowercased()),
            "creatorId": .string(creator.lowercased()),
            "createdAt": timestamp(createdAt),
            "status": .string(FamilyReminder.Status.pending.rawValue),
        ]
        if let schedule {
            fields["repeatDays"] = .string(schedule.weekdays.sorted().map(\.code).joined(separator: ","))
            fields["repeatInterval"] = .int(Int64(schedule.interval))
            fields["repeatStart"] = .string(schedule.start.description)
            fields["repeatTime"] = .string(schedule.time.description)
        }
        return fields
    }

    /// Only the fields given change.
    static func edit(title: String?, dueAt: Date?, assignee: String?) -> [String: JSONTree] {
        var fields: [String: JSONTree] = [:]
        if let title { fields["title"] = .string(title.trimmingCharacters(in: .whitespacesAndNewlines)) }
        if let dueAt { fields["dueAt"] = timestamp(dueAt) }
        if let assignee { fields["assigneeId"] = .string(assignee.lowercased()) }
        return fields
    }

    /// Done by `member` at `time`. A repeating reminder stays pending with its next occurrence due
    /// (`nextDue`); any other is completed, and read-only from then on.
    static func completion(by member: String, at time: Date, nextDue: Date?) -> [String: JSONTree] {
        var fields: [String: JSONTree] = ["completedBy": .string(member.lowercased()), "completedAt": timestamp(time)]
        if let nextDue {
            fields["dueAt"] = timestamp(nextDue)
        } else {
            fields["status"] = .string(FamilyReminder.Status.completed.rawValue)
        }
        return fields
    }

    static func item(of reminder: UUID, text: String, position: Int64) -> [String: JSONTree] {
        [
            "reminderId": .string(reminder.lowercased),
            "text": .string(text.trimmingCharacters(in: .whitespacesAndNewlines)),
            "done": .bool(false),
            "position": .int(position),
        ]
    }

    private static func timestamp(_ date: Date) -> JSONTree { .string(WireCoding.formatTimestamp(date)) }
}
