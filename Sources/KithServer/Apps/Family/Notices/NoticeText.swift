import Foundation
import KithCore

/// What a notice says to one recipient. Times stay moments (`NoticeWording.time`), written on each
/// reader's clock when read; the assignee reads about themselves as "you".
struct NoticeText: Sendable {
    let title: String
    let body: String

    /// `now` is when it is delivered: a before-due notice says how long is really left. `next` is
    /// the occurrence a missed one moved the reminder to.
    init(
        kind: NoticeKind, reminder: FamilyReminder, family: FamilySnapshotOfRecords, now: Date, recipient: String,
        next: Date? = nil
    ) {
        let due = NoticeWording.time(reminder.dueAt)
        let isAssignee = recipient == reminder.assigneeId
        let who = family.name(of: reminder.assigneeId)
        switch kind {
        case .due:
            title = reminder.title
            // A reminder with a place asks for it again: where the person is now, for this occurrence.
            body =
                "Due now (\(due))."
                + (reminder.location == nil ? "" : " Set where you are now: this reminder uses a place.")
        case .snoozed:
            let left = max(0, family.snoozeLimit - reminder.snoozeCount)
            title = reminder.title
            body = "Snoozed \(reminder.snoozeCount) of \(family.snoozeLimit) times; \(left) left. It was due at \(due)."
        case .before3, .before2, .before1:
            let minutes = max(1, Int((reminder.dueAt.timeIntervalSince(now) / 60).rounded(.up)))
            title = "In \(minutes) minute\(minutes == 1 ? "" : "s"): \(reminder.title)"
            body = "Due at \(due). Set where you are now if the reminder needs a place."
        case .completion:
            let at = reminder.completedAt.map(NoticeWording.time) ?? due
            title = "\(family.name(of: reminder.completedBy)) completed \(reminder.title)"
            // What was left unticked, as the completion wrote it down: a repeat's checklist is unticked
            // for its next occurrence by the time this is told.
            let unticked = reminder.completedUnticked
            body = "Done at \(at)" + (unticked.isEmpty ? "." : "; not ticked: \(unticked.joined(separator: ", ")).")
        case .movement:
            title = isAssignee ? "You moved away" : "\(who) moved away"
            body =
                isAssignee
                ? "You are 20 m or more from where \(reminder.title) was set; your parents are told."
                : "20 m or more from where \(reminder.title) was set."
        case .missed:
            title = isAssignee ? "Missed: \(reminder.title)" : "\(who) missed \(reminder.title)"
            body = "It was due at \(due) and was not done." + (next.map { " Next: \(NoticeWording.day($0))." } ?? "")
        }
    }
}
