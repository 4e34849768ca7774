import Foundation
import KithCore

/// Whether and how the reader may snooze a reminder, for its page and its due notices: the
/// assignee, once it is due, while the family's limit leaves snoozes (`FamilyRules` decide again
/// when the form is sent).
enum ReminderSnoozeView {
    /// The lengths the form offers, in minutes.
    static let choices: [Int64] = [5, 10, 15, 30, 60]

    static func values(_ reminder: FamilyReminder, _ snapshot: FamilySnapshot, now: Date, today: LocalDate)
        -> [String: Any]?
    {
        guard reminder.status == .pending, reminder.assigneeId == snapshot.me, now >= reminder.dueAt else { return nil }
        let limit = snapshot.family.snoozeLimit
        let left = max(0, limit - reminder.snoozeCount)
        var values: [String: Any] = [
            "left": left == 1 ? "1 snooze left" : "\(left) snoozes left",
            "mayMore": left > 0,
            "limit": "The family allows \(limit) \(limit == 1 ? "snooze" : "snoozes") per reminder.",
            "choices": choices.map { ["minutes": $0, "selected": $0 == 10] as [String: Any] },
        ]
        if let until = reminder.snoozedUntil, until > now {
            values["until"] = "Snoozed until \(FamilyFormat.timeAndDay(until, in: snapshot.timeZone, today: today))"
        }
        return values
    }
}
