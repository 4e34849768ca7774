import Foundation

/// Undoing a completion: the parents hear of a completion 30 s after it, "none if the
/// completion is undone … within those 30 s". So for those 30 s, and for the one who completed it
/// only, the completion may be taken back: the reminder is pending again and due at the occurrence
/// that was done (`completedDueAt`), even if that time has passed. Nothing else may change with it,
/// and after 30 s a completed reminder is read-only again.
extension FamilyRules {
    /// The fields an undo writes; any other must keep its stored value.
    static let undoFields: Set<String> = [
        ReminderFields.status, ReminderFields.completedBy, ReminderFields.completedAt, ReminderFields.completedDueAt,
        ReminderFields.dueAt,
    ]

    /// Why the undo `mutation` (see `completionChange`) is refused, or nil when it stands.
    static func undoProblem(_ mutation: Mutation, current: [String: JSONTree], actor: String, now: Date)
        -> APIErrorDetail?
    {
        guard current[ReminderFields.completedBy]?.stringValue?.lowercased() == actor else {
            return refuse(.notAllowed, "Only the person who completed this reminder can undo it.")
        }
        // Strictly before the parents' notice is due: an undo accepted means no one was told.
        let completedAt = timestamp(ReminderFields.completedAt, current) ?? .distantPast
        guard now.timeIntervalSince(completedAt) < FamilyLimits.undoSeconds else {
            return refuse(.undoExpired, "A completion can be undone only within 30 seconds.")
        }
        // A field may come along unchanged (a device sending more than it changed).
        let changed = mutation.fields.keys.sorted().first {
            !undoFields.contains($0) && mutation.fields[$0] != (current[$0] ?? .null)
        }
        if let changed {
            return refuse(
                .validationFailed, "An undo changes nothing but the completion; \(changed) can't change with it.",
                field: changed)
        }
        let merged = current.merging(mutation.fields) { _, given in given }
        guard merged[ReminderFields.status]?.stringValue == FamilyReminder.Status.pending.rawValue else {
            return refuse(.validationFailed, "An undone reminder is pending again.", field: ReminderFields.status)
        }
        if let kept = completionFields.first(where: { (merged[$0] ?? .null) != .null }) {
            return refuse(.validationFailed, "An undo clears \(kept).", field: kept)
        }
        // Back to the occurrence that was done (a one-off's due time never moved).
        let restored = timestamp(ReminderFields.completedDueAt, current) ?? timestamp(ReminderFields.dueAt, current)
        guard timestamp(ReminderFields.dueAt, merged)?.epochMillis == restored?.epochMillis else {
            return refuse(
                .validationFailed, "An undo makes the completed occurrence due again.", field: ReminderFields.dueAt)
        }
        return nil
    }

    /// A completion's `completedDueAt`, when given, is the occurrence it finished: the stored due
    /// time, or (a second device completing an occurrence another already moved past) the
    /// occurrence just before the new due time.
    static func completedDueAtProblem(
        _ mutation: Mutation, current: [String: JSONTree], due: Date?, recurrence: Recurrence?
    ) -> APIErrorDetail? {
        guard let stated = timestamp(ReminderFields.completedDueAt, mutation.fields) else { return nil }
        if stated.epochMillis == timestamp(ReminderFields.dueAt, current)?.epochMillis { return nil }
        if let recurrence, let due, recurrence.next(after: stated)?.epochMillis == due.epochMillis,
            recurrence.next(after: stated.addingTimeInterval(-0.001))?.epochMillis == stated.epochMillis
        {
            return nil
        }
        return refuse(
            .validationFailed, "completedDueAt is the due time of the occurrence completed.",
            field: ReminderFields.completedDueAt)
    }

    static func timestamp(_ name: String, _ fields: [String: JSONTree]) -> Date? {
        fields[name]?.stringValue.flatMap(WireCoding.parseTimestamp)
    }
}
