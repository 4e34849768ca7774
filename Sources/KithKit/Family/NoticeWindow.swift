import Foundation
import KithCore

/// The notices a device schedules with the system so a phone rings even offline: the signed-in
/// user's next ones by `NoticePlan`, at most `size` (iOS keeps at most 64 pending local
/// notifications per app). `FamilyStore.upcomingNotices` holds it, read again after every change.
public enum NoticeWindow {
    public static let size = 64

    /// The next `size` notices to `user` from the pending reminders assigned to them, earliest
    /// first, none at or before `now`.
    static func upcoming(in book: FamilyBook, for user: String, after now: Date, size: Int = size) -> [PlannedNotice] {
        let mine = book.reminders.filter { $0.status == .pending && $0.assigneeId == user.lowercased() }
        let notices = mine.flatMap(NoticePlan.upcoming(for:)).filter { $0.at > now }
        // Ties (two reminders due at one time) in a fixed order, so the window does not shuffle.
        let ordered = notices.sorted {
            ($0.at, $0.reminder.uuidString, $0.kind.rawValue) < ($1.at, $1.reminder.uuidString, $1.kind.rawValue)
        }
        return Array(ordered.prefix(size))
    }
}
