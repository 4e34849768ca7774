import Foundation

/// What a change does to a reminder's completion, whatever fields it carries. A completion is
/// judged as one however it is spelled: `status` to completed, `completedBy` or `completedAt` set,
/// or a repeat's `dueAt` moved past its current occurrence (what completing one occurrence does).
/// So no one completes someone else's reminder by leaving `completedBy` out, and no completion
/// is silent (the parents' notice is planned from `completedAt`).
extension FamilyRules {
    enum CompletionChange: Equatable {
        /// Leaves the completion as it is.
        case none
        /// Completes the reminder, or the current occurrence of a repeat.
        case completion
        /// Takes back the stored completion.
        case undo
    }

    static let completionFields = [
        ReminderFields.completedBy, ReminderFields.completedAt, ReminderFields.completedDueAt,
    ]
    /// Every field of a repeat: an edit of any of them is an edit of the repeat, not a completion.
    public static let repeatFields = [
        ReminderFields.repeatFrequency, ReminderFields.repeatDays, ReminderFields.repeatInterval,
        ReminderFields.repeatStart, ReminderFields.repeatTime, ReminderFields.repeatMonthDay,
        ReminderFields.repeatMonthWeekday,
    ]

    /// How `mutation` (an upsert of the stored reminder `current`) changes its completion.
    static func completionChange(
        _ mutation: Mutation, of current: [String: JSONTree], timeZone: TimeZone
    ) -> CompletionChange {
        let given = mutation.fields
        let stored = { (name: String) in current[name] ?? .null }
        let status = { (fields: [String: JSONTree]) in fields[ReminderFields.status]?.stringValue }
        // Clearing any part of a completion, or a completed reminder made pending, takes it back.
        let cleared = completionFields.contains { given[$0] == .null && stored($0) != .null }
        if cleared || (status(current) == "completed" && status(given) == "pending") { return .undo }
        if status(current) != "completed" && status(given) == "completed" { return .completion }
        if completionFields.contains(where: { given[$0] != nil && given[$0] != .null && given[$0] != stored($0) }) {
            return .completion
        }
        if movesPastCurrentOccurrence(given, of: current, timeZone: timeZone) { return .completion }
        return .none
    }

    /// Whether `given` moves a repeat's due time to its next occurrence or beyond while keeping the
    /// repeat: the current occurrence is then behind it, as when it is completed. An edit of the
    /// repeat itself (days, interval, start, time) makes a new first occurrence due and is an edit.
    static func movesPastCurrentOccurrence(
        _ given: [String: JSONTree], of current: [String: JSONTree], timeZone: TimeZone
    ) -> Bool {
        guard let newDue = timestamp(ReminderFields.dueAt, given),
            let currentDue = timestamp(ReminderFields.dueAt, current),
            !repeatFields.contains(where: { given[$0] != nil && given[$0] != (current[$0] ?? .null) }),
            case .success(let recurrence?) = recurrence(current, timeZone: timeZone),
            let next = recurrence.next(after: currentDue)
        else { return false }
        return newDue.epochMillis >= next.epochMillis
    }

    /// Why the completion `mutation` (see `completionChange`) of a pending reminder is refused, or
    /// nil: only the creator or the assignee completes, naming themselves in `completedBy`, saying
    /// when in `completedAt`; a one-off becomes completed, a repeat moves to its next occurrence.
    static func completionProblem(
        _ mutation: Mutation, current: [String: JSONTree], merged: [String: JSONTree], actor: String,
        recurrence: Recurrence?
    ) -> APIErrorDetail? {
        let creator = current[ReminderFields.creatorId]?.stringValue?.lowercased()
        let assignee = current[ReminderFields.assigneeId]?.stringValue?.lowercased()
        guard actor == creator || actor == assignee else {
            return refuse(.notAllowed, "Only the creator or the assignee can complete this reminder.")
        }
        guard mutation.fields[ReminderFields.completedBy]?.stringValue?.lowercased() == actor else {
            return refuse(
                .validationFailed, "A completion names the person completing it: completedBy must be you.",
                field: ReminderFields.completedBy)
        }
        guard timestamp(ReminderFields.completedAt, mutation.fields) != nil else {
            return refuse(
                .validationFailed, "A completion says when it happened (completedAt).",
                field: ReminderFields.completedAt)
        }
        let due = timestamp(ReminderFields.dueAt, merged)
        if let problem = completedDueAtProblem(mutation, current: current, due: due, recurrence: recurrence) {
            return problem
        }
        let completed = merged[ReminderFields.status]?.stringValue == FamilyReminder.Status.completed.rawValue
        guard let recurrence else {
            return completed
                ? nil
                : refuse(.validationFailed, "A completed reminder's status is completed.", field: ReminderFields.status)
        }
        if completed { return nil }
        // One occurrence done: due moves to the next one (or already did, when another device
        // completed the same occurrence first).
        let currentDue = timestamp(ReminderFields.dueAt, current)
        let next = currentDue.flatMap { recurrence.next(after: $0) }
        guard let due, due.epochMillis == currentDue?.epochMillis || due.epochMillis == next?.epochMillis else {
            return refuse(
                .validationFailed, "Completing a repeating reminder makes its next occurrence due.",
                field: ReminderFields.dueAt)
        }
        return nil
    }
}
