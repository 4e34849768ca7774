import Foundation
import KithCore

/// Whether and how the reader may snooze a reminder, for its page and its due notices: the
/// assignee, once it is due, while the family's limit leaves snoozes (`FamilyRules` decide again
/// when the form is sent).
struct ReminderSnooze {
    /// The lengths the form offers, in minutes.
    static let lengths: [Int64] = [5, 10, 15, 30, 60]

    /// "2 snoozes left".
    let left: String
    let mayMore: Bool
    /// "The family allows 3 snoozes per reminder."
    let limit: String
    let choices: [Choice]
    /// "Snoozed until 07:40 today", while it is.
    let until: String?

    struct Choice {
        let minutes: Int64
        let selected: Bool
    }

    /// Nil when the reader may not snooze it (not theirs, not due, done).
    init?(_ reminder: FamilyReminder, _ snapshot: FamilySnapshot, now: Date, today: LocalDate) {
        guard reminder.status == .pending, reminder.assigneeId == snapshot.me, now >= reminder.dueAt else { return nil }
        let limit = snapshot.family.snoozeLimit
        let left = max(0, limit - reminder.snoozeCount)
        self.left = left == 1 ? "1 snooze left" : "\(left) snoozes left"
        mayMore = left > 0 && snapshot.permissions(reminder, now: now).snooze
        self.limit = "The family allows \(limit) \(limit == 1 ? "snooze" : "snoozes") per reminder."
        choices = Self.lengths.map { Choice(minutes: $0, selected: $0 == 10) }
        until = reminder.snoozedUntil.flatMap { until in
            until > now ? "Snoozed until \(FamilyFormat.timeAndDay(until, in: snapshot.timeZone, today: today))" : nil
        }
    }
}
