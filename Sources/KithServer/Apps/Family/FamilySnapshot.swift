import Foundation
import KithCore

/// What a member sees of their family at one moment: the family as the membership table has it
/// (members with their emails, the reader's role) and its synced records read into a `FamilyBook`.
struct FamilySnapshot: Sendable {
    let family: FamilyDTO
    let book: FamilyBook
    /// The reader's user id (lower case).
    let me: String
    /// Each repeating reminder's recurrence, by reminder id.
    let recurrences: [UUID: Recurrence]
    /// The family's records, which the rules judge the reader's actions over.
    let records: [SyncRecord]

    init(family: FamilyDTO, records: [SyncRecord], me: String) {
        self.family = family
        self.me = me.lowercased()
        self.records = records
        book = FamilyBook(records: records)
        let zone = book.timeZone
        var recurrences: [UUID: Recurrence] = [:]
        for record in records where record.entity == FamilyEntities.reminder.name && !record.isDeleted {
            if case .success(let recurrence?) = FamilyRules.recurrence(record.fields, timeZone: zone) {
                recurrences[record.id] = recurrence
            }
        }
        self.recurrences = recurrences
    }

    var scope: String { family.scope }
    var isParent: Bool { family.role == .parent }
    /// The family's zone (from the membership table, which the mirrored `family.info` follows).
    var timeZone: TimeZone { TimeZone(identifier: family.timeZone) ?? book.timeZone }

    func reminder(_ id: UUID) -> FamilyReminder? { book.reminders.first { $0.id == id } }

    /// The member's display name, or "a former member" for someone who left.
    func name(of userID: String?) -> String {
        guard let userID else { return "" }
        return family.members.first { $0.userId.lowercased() == userID.lowercased() }?.displayName ?? "a former member"
    }

    /// Whom the reader may assign a reminder to: a parent anyone, a child themselves (FamilyRules).
    var assignable: [FamilyMemberDTO] {
        isParent ? family.members : family.members.filter { $0.userId.lowercased() == me }
    }

    /// What the reader may do with `reminder` at `now`, as `FamilyRules` judge it: the pages offer
    /// only these actions.
    func permissions(_ reminder: FamilyReminder, now: Date) -> ReminderPermissions {
        ReminderPermissions(reminder, records: records, scope: scope, actor: me, now: now)
    }

    /// How long the reader may still take back their completion of a moment ago; nil when they
    /// may not (`FamilyRules` decide, and again when the form is sent).
    func undoTimeLeft(_ reminder: FamilyReminder, now: Date) -> TimeInterval? {
        guard let completedAt = reminder.completedAt, permissions(reminder, now: now).undo else { return nil }
        let left = FamilyLimits.undoSeconds - now.timeIntervalSince(completedAt)
        return left > 0 ? left : nil
    }
}
