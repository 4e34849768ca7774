import Foundation
import KithCore

/// A reminder as a person describes it on a form, for creating or editing one. When it repeats,
/// `dueAt` is left to `ReminderService`: the first occurrence after now.
struct ReminderDraft: Sendable, Equatable {
    /// One line of the checklist: an existing item (its id) or a new one.
    struct Line: Sendable, Equatable {
        var id: UUID?
        var text: String
    }

    var title: String
    var dueAt: Date?
    var assigneeId: String
    var recurrence: WeeklyRecurrence?
    var checklist: [Line]
}

/// The fields of `family.reminder` and `family.checklistItem` records as the web pages write them.
enum ReminderRecordFields {
    static func timestamp(_ date: Date) -> JSONTree { .string(WireCoding.formatTimestamp(date)) }

    /// The four `repeat…` fields, all null when it does not repeat.
    static func recurrence(_ recurrence: WeeklyRecurrence?) -> [String: JSONTree] {
        guard let recurrence else {
            return ["repeatDays": .null, "repeatInterval": .null, "repeatStart": .null, "repeatTime": .null]
        }
        return [
            "repeatDays": .string(recurrence.weekdays.sorted().map(\.code).joined(separator: ",")),
            "repeatInterval": .int(Int64(recurrence.interval)),
            "repeatStart": .string(recurrence.start.description),
            "repeatTime": .string(recurrence.time.description),
        ]
    }

    static func new(_ draft: ReminderDraft, dueAt: Date, creator: String, now: Date) -> [String: JSONTree] {
        var fields: [String: JSONTree] = [
            "title": .string(draft.title.trimmingCharacters(in: .whitespacesAndNewlines)),
            "dueAt": timestamp(dueAt),
            "assigneeId": .string(draft.assigneeId.lowercased()),
            "creatorId": .string(creator.lowercased()),
            "createdAt": timestamp(now),
            "status": .string(FamilyReminder.Status.pending.rawValue),
        ]
        if draft.recurrence != nil { fields.merge(recurrence(draft.recurrence)) { _, new in new } }
        return fields
    }

    /// Done by `member` at `time`: a repeating reminder stays pending with `nextDue` due; any
    /// other is completed (and read-only from then on).
    static func completion(by member: String, at time: Date, nextDue: Date?) -> [String: JSONTree] {
        var fields: [String: JSONTree] = ["completedBy": .string(member.lowercased()), "completedAt": timestamp(time)]
        if let nextDue {
            fields["dueAt"] = timestamp(nextDue)
        } else {
            fields["status"] = .string(FamilyReminder.Status.completed.rawValue)
        }
        return fields
    }

    static func item(of reminder: UUID, text: String, position: Int) -> [String: JSONTree] {
        [
            "reminderId": .string(reminder.lowercased),
            "text": .string(text.trimmingCharacters(in: .whitespacesAndNewlines)),
            "done": .bool(false),
            "position": .int(Int64(position)),
        ]
    }
}
