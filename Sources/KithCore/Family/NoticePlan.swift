import Foundation

/// The notices a family gets, and when each is due (docs/family.md, "Notices"). The server
/// schedules and delivers them; devices use the same plan for the window of upcoming
/// notices they schedule locally, so a phone still rings offline.
public enum NoticeKind: String, Sendable, Codable, CaseIterable {
    /// To the assignee when the reminder is due: its title and due time.
    case due
    /// To the assignee again when a snooze of the due notice ends: how many snoozes are left.
    case snoozed
    /// To the assignee 3, 2 and 1 minutes before, while the reminder has no place: an invitation to set it.
    case before3 = "before_3"
    case before2 = "before_2"
    case before1 = "before_1"
    /// To every parent, 30 s after a completion: who completed what.
    case completion
    /// To every parent and the assignee at once: the assignee is 20 m or more from the reminder's place.
    case movement
    /// To the assignee and every parent, as the next occurrence of a repeat comes up: the current
    /// one was not done. The reminder then moves on to the next occurrence.
    case missed

    /// How long before the due time a before-due notice comes.
    public var lead: TimeInterval? {
        switch self {
        case .before3: return 180
        case .before2: return 120
        case .before1: return 60
        default: return nil
        }
    }

    public static let beforeDue: [NoticeKind] = [.before3, .before2, .before1]
}

/// One notice as planned: what, for which occurrence (the due time it belongs to), when, for whom.
/// (reminder, occurrence, kind, recipient) is delivered once.
public struct PlannedNotice: Sendable, Hashable {
    public let reminder: UUID
    public let kind: NoticeKind
    /// The due time of the occurrence it is about; for a completion, the completion's time.
    public let occurrence: Date
    /// When it is delivered.
    public let at: Date
    public let recipients: [String]

    public init(reminder: UUID, kind: NoticeKind, occurrence: Date, at: Date, recipients: [String]) {
        self.reminder = reminder
        self.kind = kind
        self.occurrence = occurrence
        self.at = at
        self.recipients = recipients
    }
}

public enum NoticePlan {
    /// A completion is told to the parents this long after it happened: as long as it may be
    /// undone, so an undo tells no one.
    public static let completionDelay: TimeInterval = FamilyLimits.undoSeconds

    /// The notices of a pending reminder's current occurrence: 3, 2 and 1 minutes before (only
    /// while it has no place: they invite setting one), and at the due time, all to the assignee.
    /// A completed reminder has none.
    public static func upcoming(for reminder: FamilyReminder) -> [PlannedNotice] {
        guard reminder.status == .pending else { return [] }
        let invitations = reminder.location == nil ? NoticeKind.beforeDue : []
        let before = invitations.compactMap { kind in
            kind.lead.map {
                PlannedNotice(
                    reminder: reminder.id, kind: kind, occurrence: reminder.dueAt, at: reminder.dueAt - $0,
                    recipients: [reminder.assigneeId])
            }
        }
        var notices =
            before
            + [
                PlannedNotice(
                    reminder: reminder.id, kind: .due, occurrence: reminder.dueAt, at: reminder.dueAt,
                    recipients: [reminder.assigneeId])
            ]
        if let until = reminder.snoozedUntil {
            notices.append(
                PlannedNotice(
                    reminder: reminder.id, kind: .snoozed, occurrence: until, at: until,
                    recipients: [reminder.assigneeId]))
        }
        return notices
    }

    /// A repeat's current occurrence is missed if it is still not done when the next one's
    /// notices begin (3 minutes before it): the reminder then moves on, so every occurrence is told.
    public static func missed(of reminder: FamilyReminder, next: Date) -> PlannedNotice? {
        guard reminder.status == .pending, let lead = NoticeKind.before3.lead else { return nil }
        return PlannedNotice(
            reminder: reminder.id, kind: .missed, occurrence: reminder.dueAt, at: max(reminder.dueAt, next - lead),
            recipients: [])
    }

    /// The movement alert, to `parents` at once, when the assignee moved away (recipients as for
    /// `completion`).
    public static func movement(of reminder: FamilyReminder, parents: [String] = []) -> PlannedNotice? {
        guard let movedAt = reminder.movedAt else { return nil }
        return PlannedNotice(
            reminder: reminder.id, kind: .movement, occurrence: movedAt, at: movedAt, recipients: parents)
    }

    /// The completion notice of the reminder's latest completion, to `parents`, 30 s later. The
    /// server plans it with no recipients and reads the parents of that moment when it delivers.
    public static func completion(of reminder: FamilyReminder, parents: [String] = []) -> PlannedNotice? {
        guard let completedAt = reminder.completedAt else { return nil }
        return PlannedNotice(
            reminder: reminder.id, kind: .completion, occurrence: completedAt, at: completedAt + completionDelay,
            recipients: parents)
    }

    /// Whether `notice`, planned earlier, still stands for `reminder` as it is now (nil: deleted):
    /// an edit that moved the due time, a completion, an undone completion or a deletion cancels.
    /// A before-due notice whose due time has passed by `now`, or once the place is set, is dropped.
    public static func stillStands(_ notice: PlannedNotice, for reminder: FamilyReminder?, now: Date) -> Bool {
        guard let reminder else { return false }
        // Compared in whole milliseconds, as the wire and a job's payload carry times: a time parsed
        // from "…:59.611Z" and one rebuilt from 1795583999611 ms can differ in the last bit.
        func same(_ time: Date?) -> Bool { time?.epochMillis == notice.occurrence.epochMillis }
        switch notice.kind {
        case .completion:
            return same(reminder.completedAt)
        case .movement:
            return same(reminder.movedAt)
        case .snoozed:
            return reminder.status == .pending && same(reminder.snoozedUntil)
        case .due, .missed:
            return reminder.status == .pending && same(reminder.dueAt)
        case .before3, .before2, .before1:
            // They invite setting the place: once it is set, the rest are not sent.
            return reminder.status == .pending && same(reminder.dueAt) && now < notice.occurrence
                && reminder.location == nil
        }
    }

    /// What became of the reminder since a notice about one of its occurrences was delivered:
    /// completed (that occurrence, or the reminder for good) or deleted; nil while the notice
    /// still stands or says nothing an action could change (a completion, a movement, a missed one).
    public static func since(_ notice: NoticeDTO, reminder: FamilyReminder?) -> NoticeAftermath? {
        let aboutAnOccurrence: Set<NoticeKind> = [.due, .snoozed, .before3, .before2, .before1]
        guard aboutAnOccurrence.contains(notice.kind) else { return nil }
        guard let reminder else { return .deleted }
        if reminder.status == .completed { return .completed }
        // A repeat's occurrence done (a snoozed notice's occurrence is when the snooze ended, so
        // only a completion for good shows on it).
        if notice.kind != .snoozed, reminder.completedDueAt?.epochMillis == notice.occurrence.epochMillis {
            return .completed
        }
        return nil
    }
}

/// What became of a notice's reminder since (`NoticePlan.since`).
public enum NoticeAftermath: String, Sendable, Codable {
    case completed, deleted

    /// "Completed since", "Deleted since".
    public var words: String { rawValue.capitalized + " since" }
}
