import Foundation
import KithCore

/// Snoozing a due notice and a reminder's place. Like every action of the store, each is
/// one local write queued for sync and judged by `FamilyRules` inside it, so the snooze limit and
/// who may snooze hold offline too; the server then plans the snoozed and movement notices.
extension FamilyStore {
    /// Snoozes the due notice of a reminder assigned to the signed-in user, for `minutes` (1 to
    /// 1,440) from now. Refused before it is due, for anyone but the assignee, and once it was
    /// snoozed as often as the family allows (`LocalFamily.snoozeLimit`; code `snooze_limit`).
    @discardableResult
    public func snooze(_ id: UUID, minutes: Int64 = 10) throws -> FamilyReminder {
        try KithError.check(
            minutes, in: FamilyLimits.snoozeMinutes, field: ReminderFields.snoozedUntil,
            "A snooze lasts \(FamilyLimits.snoozeMinutes.lowerBound) to \(FamilyLimits.snoozeMinutes.upperBound) minutes."
        )
        return try applying { ReminderOperations.snooze(id, minutes: minutes, in: $0) }
    }

    /// Sets (or replaces) where the reminder is to be done: the assignee's movements are tracked
    /// against this place from now on (`report`). `accuracy` is the reading's radius in metres.
    @discardableResult
    public func setLocation(_ id: UUID, point: GeoPoint, accuracy: Double) throws -> FamilyReminder {
        try applying {
            ReminderOperations.setPlace(id, FamilyReminderInput.Place(point: point, accuracy: accuracy), in: $0)
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
        try applying { ReminderOperations.report(point, accuracy: accuracy, for: id, in: $0) }
    }
}
