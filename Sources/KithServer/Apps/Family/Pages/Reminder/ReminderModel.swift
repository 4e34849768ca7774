import Foundation
import KithCore

/// A reminder's page (family-reminder.mustache): the reminder, its snooze and place, the undo of
/// a completion a moment ago, and the refusal of an action on it.
struct ReminderModel: FamilyPageModel {
    static let template = "family-reminder"

    let reminder: ReminderRow
    let place: ReminderPlace?
    let snooze: ReminderSnooze?
    let undo: Undo?
    /// Where its forms go back to: this page.
    let back: String
    var error: String?

    init(_ reminder: FamilyReminder, _ snapshot: FamilySnapshot, now: Date) {
        let today = LocalDate(now, in: snapshot.timeZone)
        self.reminder = ReminderRow(reminder, snapshot, now: now, today: today)
        place = reminder.location.map {
            ReminderPlace($0, movedAt: reminder.movedAt, in: snapshot.timeZone, today: today)
        }
        snooze = ReminderSnooze(reminder, snapshot, now: now, today: today)
        // family.js takes the button away when the time is up (counted from the page's arrival).
        undo = snapshot.undoTimeLeft(reminder, now: now).map { Undo(secondsLeft: Int($0.rounded(.up))) }
        back = "/family/reminders/\(reminder.id.lowercased)"
    }

    struct Undo {
        let secondsLeft: Int
    }
}
