import Foundation

/// Only parents create reminders for children, so what a parent asked of a child is the parent's
/// to change: its title, due time, repeat, assignee and checklist (the items' text, adding and
/// removing them), and deleting it. The child does what was asked: ticks its checklist, completes
/// (and undoes its completion), snoozes, sets its place and reports where it is. A reminder a child
/// made for itself stays the child's to change.
extension FamilyRules {
    /// The fields a child writes on a reminder a parent made for it.
    static let childFields = Set(
        [
            ReminderFields.status, ReminderFields.snoozeCount, ReminderFields.snoozedUntil,
            ReminderFields.completedUnticked,
        ] + completionFields
            + ReminderFields.placeFieldNames)

    static let parentsDecide =
        "Only a parent can change what a parent asked: its title, due time, repeat and checklist."

    /// Whether `actor` (role `role`) is a child acting on a reminder someone else made.
    static func isChildOnAParentsReminder(actor: String, role: String, reminder: [String: JSONTree]) -> Bool {
        role != "parent" && reminder[ReminderFields.creatorId]?.stringValue?.lowercased() != actor
    }

    /// Why a child's change of a parent's reminder is refused: it changes a field only a parent
    /// changes. `dueAt` moves only with a completion or an undo (`completionChange`).
    static func childLimitProblem(_ mutation: Mutation, current: [String: JSONTree], change: CompletionChange)
        -> APIErrorDetail?
    {
        let changed = mutation.fields.keys.sorted().first { name in
            guard mutation.fields[name] != (current[name] ?? .null) else { return false }
            if name == ReminderFields.dueAt { return change == .none }
            return !childFields.contains(name)
        }
        return changed.map { refuse(.notAllowed, parentsDecide, field: $0) }
    }

    /// Why a child's change of an item of a parent's reminder is refused: only ticking an item
    /// (`done`) is the child's; adding, removing, rewording or reordering items is a parent's.
    static func childItemProblem(_ mutation: Mutation, current: SyncRecord?) -> APIErrorDetail? {
        guard let current, mutation.op != .delete else { return refuse(.notAllowed, parentsDecide) }
        let changed = mutation.fields.keys.sorted().first {
            $0 != ReminderFields.done && mutation.fields[$0] != (current.fields[$0] ?? .null)
        }
        return changed.map { refuse(.notAllowed, parentsDecide, field: $0) }
    }
}
