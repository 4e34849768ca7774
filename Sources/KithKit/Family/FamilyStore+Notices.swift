import Foundation
import KithCore

/// Snoozing a due notice and a reminder's place (issue 17). Like every action of the store, each is
/// one local write queued for sync and judged by `FamilyRules` inside it, so the snooze limit and
/// who may snooze hold offline too; the server then plans the snoozed and movement notices.
extension FamilyStore {
    /// Snoozes the due notice of a reminder assigned to the signed-in user, for `minutes` (1 to
    /// 1,440) from now. Refused before it is due, for anyone but the assignee, and once it was
    /// snoozed as often as the family allows (`LocalFamily.snoozeLimit`; code `snooze_limit`).
    @discardableResult
    public func snooze(_ id: UUID, minutes: Int64 = 10) throws -> FamilyReminder {
        try KithError.check(
            minutes, in: FamilyLimits.snoozeMinutes, field: "snoozedUntil",
            "A snooze lasts \(FamilyLimits.snoozeMinutes.lowerBound) to \(FamilyLimits.snoozeMinutes.upperBound) minutes."
        )
        return try writing { transaction, _, book in
            let reminder = try Self.find(id, in: book)
            try transaction.save(
                Self.reminderEntity, id: id,
                fields: ReminderFields.snooze(reminder, minutes: minutes, now: self.store.now()))
            return try self.written(id, transaction)
        }
    }

    /// Sets (or replaces) where the reminder is to be done: the assignee's movements are tracked
    /// against this place from now on (`report`). `accuracy` is the reading's radius in metres.
    @discardableResult
    public func setLocation(_ id: UUID, point: GeoPoint, accuracy: Double) throws -> FamilyReminder {
        try writing { transaction, _, book in
            _ = try Self.find(id, in: book)
            try transaction.save(
                Self.reminderEntity, id: id,
                fields: ReminderFields.location(point, accuracy: accuracy, at: self.store.now()))
            return try self.written(id, transaction)
        }
    }

    /// What an app's location service calls with each reading while a reminder is tracked; the
    /// answer is `MovementRule`'s. Distances are from the place, which stays where it was set. An
    /// inaccurate reading, or one within 5 m of the last reading sent, writes nothing; one farther
    /// from it is sent (`ReminderLocation.lastReading`); one 20 m or more from the place records the
    /// movement (the server tells the parents and the assignee at once) and stops tracking. Refused
    /// (`not_tracked`) for a reminder with no place, no longer tracked, or completed.
    @discardableResult
    public func report(_ point: GeoPoint, accuracy: Double, for id: UUID) throws -> MovementRule.Outcome {
        try writing { transaction, _, book in
            let reminder = try Self.find(id, in: book)
            guard let reading = ReminderFields.reading(point, accuracy: accuracy, at: self.store.now(), for: reminder)
            else { throw Self.notTracked(reminder) }
            if !reading.fields.isEmpty { try transaction.save(Self.reminderEntity, id: id, fields: reading.fields) }
            return reading.outcome
        }
    }

    private static func notTracked(_ reminder: FamilyReminder) -> KithError {
        let why =
            if reminder.status == .completed {
                "This reminder is completed: its place is no longer tracked."
            } else if reminder.location == nil {
                "This reminder has no place yet: set one first."
            } else {
                "Tracking stopped when its person moved away: set the place again to track it."
            }
        return KithError.invalid(APIErrorDetail(code: "not_tracked", message: why))
    }
}
