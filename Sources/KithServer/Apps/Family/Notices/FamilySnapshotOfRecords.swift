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

    /// Due and before-due notices go to the assignee; completions to every parent (not to the
    /// parent who completed it), never to a child; movements and missed occurrences to every parent
    /// and to the assignee, each once.
    func recipients(of kind: NoticeKind, for reminder: FamilyReminder) -> [String] {
        let assignee = members.contains { $0.id == reminder.assigneeId } ? [reminder.assigneeId] : []
        let parents = members.filter { $0.role == .parent }.map(\.id)
        switch kind {
        case .due, .snoozed, .before3, .before2, .before1:
            return assignee
        case .completion:
            return parents.filter { $0 != reminder.completedBy }
        case .movement, .missed:
            return parents + assignee.filter { !parents.contains($0) }
        }
    }
}
