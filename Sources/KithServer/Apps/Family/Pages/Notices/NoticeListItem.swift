import Foundation
import KithCore

/// One notice as the notices page lists it: its words and time, and what it offers about its
/// reminder as the reminder stands (a link, its snooze, setting its place).
struct NoticeListItem {
    let id: String
    let title: String
    let body: String
    let kind: String
    let delivered: String
    let deliveredISO: String
    let isUnread: Bool
    /// Said when the server delivered it after its time (it was down).
    let late: String?
    let reminderLink: String?
    /// The snooze the reminder offers, on the notice about its current due time or snooze.
    let snooze: ReminderSnooze?
    let reminderId: String?
    let place: PlaceLink?
    /// "Completed since" or "Deleted since": its reminder was, after this notice came.
    let since: String?

    struct PlaceLink {
        let link: String
        let label: String
    }

    init(_ notice: NoticeDTO, snapshot: FamilySnapshot?, now: Date, today: LocalDate, zone: TimeZone) {
        id = notice.id
        title = notice.title
        body = notice.body
        kind = notice.kind.rawValue
        delivered = FamilyFormat.moment(notice.deliveredAt, in: zone, today: today)
        deliveredISO = WireCoding.formatTimestamp(notice.deliveredAt)
        isUnread = notice.readAt == nil
        late =
            notice.late
            ? "Late: meant for \(FamilyFormat.timeAndDay(notice.dueAt, in: zone, today: today)), delivered when the server was back."
            : nil
        guard let snapshot, let id = UUID(text: notice.reminderId), let reminder = snapshot.reminder(id) else {
            reminderLink = nil
            snooze = nil
            reminderId = nil
            place = nil
            // Someone who left keeps their notices as they were; a member's reminder went.
            since = snapshot?.aftermath(of: notice)?.words
            return
        }
        since = snapshot.aftermath(of: notice)?.words
        reminderLink = "/family/reminders/\(reminder.id.lowercased)"
        // Only the notice about the reminder's current due time (or current snooze) may snooze it.
        let current =
            (notice.kind == .due && notice.occurrence == reminder.dueAt)
            || (notice.kind == .snoozed && notice.occurrence == reminder.snoozedUntil)
        snooze = current ? ReminderSnooze(reminder, snapshot, now: now, today: today) : nil
        reminderId = snooze == nil ? nil : reminder.id.lowercased
        // A before-due notice invites setting the place: one tap to the place on the reminder's
        // form, while the occurrence it announced is still ahead. The due notice of a reminder that
        // uses a place asks for where the person is now, while that occurrence is current.
        let invites = notice.kind.lead != nil && now < reminder.dueAt
        let asks = notice.kind == .due && reminder.location != nil
        place =
            (invites || asks) && reminder.status == .pending && notice.occurrence == reminder.dueAt
            ? PlaceLink(
                link: "/family/reminders/\(reminder.id.lowercased)/edit#place-card",
                label: reminder.location == nil ? "Set the place" : "Change the place")
            : nil
    }
}
