import Foundation
import KithCore

/// A family as its mirrored records say (members, roles, names, time zone): who a notice goes to
/// and how it reads.
struct FamilySnapshotOfRecords: Sendable {
    let members: [FamilyMember]
    let timeZone: TimeZone
    let snoozeLimit: Int64

    init(_ records: [SyncRecord]) {
        let book = FamilyBook(records: records)
        members = book.members
        timeZone = book.timeZone
        snoozeLimit = book.snoozeLimit
    }

    func name(of userID: String?) -> String {
        members.first { $0.id == userID }?.displayName ?? "Someone"
    }

    /// Due and before-due notices go to the assignee; completions and movements to every parent
    /// (not to the parent who completed it), never to a child.
    func recipients(of kind: NoticeKind, for reminder: FamilyReminder) -> [String] {
        switch kind {
        case .due, .snoozed, .before3, .before2, .before1:
            return members.contains { $0.id == reminder.assigneeId } ? [reminder.assigneeId] : []
        case .completion:
            return members.filter { $0.role == .parent && $0.id != reminder.completedBy }.map(\.id)
        case .movement:
            return members.filter { $0.role == .parent }.map(\.id)
        }
    }
}

/// What a notice says, on the family's clock.
struct NoticeText: Sendable {
    let title: String
    let body: String

    /// `now` is when it is delivered: a before-due notice says how long is really left.
    init(kind: NoticeKind, reminder: FamilyReminder, family: FamilySnapshotOfRecords, now: Date) {
        // The pages' wall-clock time, not a DateFormatter made per notice (3.5 % of the runner's
        // time at 667 notices a second).
        func clock(_ moment: Date) -> String { FamilyFormat.local(moment, in: family.timeZone).time.description }
        let due = clock(reminder.dueAt)
        switch kind {
        case .due:
            title = reminder.title
            body = "Due now (\(due))."
        case .snoozed:
            let left = max(0, family.snoozeLimit - reminder.snoozeCount)
            title = reminder.title
            body = "Snoozed \(reminder.snoozeCount) of \(family.snoozeLimit) times; \(left) left. It was due at \(due)."
        case .before3, .before2, .before1:
            let minutes = max(1, Int((reminder.dueAt.timeIntervalSince(now) / 60).rounded(.up)))
            title = "In \(minutes) minute\(minutes == 1 ? "" : "s"): \(reminder.title)"
            body = "Due at \(due). Set where you are now if the reminder needs a place."
        case .completion:
            let at = reminder.completedAt.map(clock) ?? due
            title = "\(family.name(of: reminder.completedBy)) completed \(reminder.title)"
            body = "Done at \(at)."
        case .movement:
            title = "\(family.name(of: reminder.assigneeId)) moved away"
            body = "More than 20 m from where \(reminder.title) was set."
        }
    }
}
