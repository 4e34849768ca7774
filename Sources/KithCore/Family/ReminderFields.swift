import Foundation

/// The fields of `family.reminder` and `family.checklistItem` records as people's actions write
/// them, the same from a device (`FamilyStore`) and from the web pages (`ReminderService`), so
/// both complete, repeat and reset a checklist the one way. `FamilyRules` then judge them.
public enum ReminderFields {
    public static func timestamp(_ date: Date) -> JSONTree { .string(WireCoding.formatTimestamp(date)) }

    /// A new pending reminder, with its repeat when it has one.
    public static func new(
        title: String, dueAt: Date, assignee: String, creator: String, createdAt: Date, recurrence: WeeklyRecurrence?
    ) -> [String: JSONTree] {
        var fields: [String: JSONTree] = [
            "title": .string(title.trimmedWhitespace),
            "dueAt": timestamp(dueAt),
            "assigneeId": .string(assignee.lowercased()),
            "creatorId": .string(creator.lowercased()),
            "createdAt": timestamp(createdAt),
            "status": .string(FamilyReminder.Status.pending.rawValue),
        ]
        if recurrence != nil { fields.merge(repeating(recurrence)) { _, new in new } }
        return fields
    }

    /// Only the fields given change.
    public static func edit(title: String? = nil, dueAt: Date? = nil, assignee: String? = nil) -> [String: JSONTree] {
        var fields: [String: JSONTree] = [:]
        if let title { fields["title"] = .string(title.trimmedWhitespace) }
        if let dueAt { fields["dueAt"] = timestamp(dueAt) }
        if let assignee { fields["assigneeId"] = .string(assignee.lowercased()) }
        return fields
    }

    /// The four `repeat…` fields; all null when it does not repeat (an edit that stops a repeat).
    public static func repeating(_ recurrence: WeeklyRecurrence?) -> [String: JSONTree] {
        guard let recurrence else {
            return ["repeatDays": .null, "repeatInterval": .null, "repeatStart": .null, "repeatTime": .null]
        }
        return [
            "repeatDays": .string(recurrence.weekdays.sorted().map(\.code).joined(separator: ",")),
            "repeatInterval": .int(Int64(recurrence.interval)),
            "repeatStart": .string(recurrence.start.description),
            "repeatTime": .string(recurrence.time.description),
        ]
    }

    public static func item(of reminder: UUID, text: String, position: Int64) -> [String: JSONTree] {
        [
            "reminderId": .string(reminder.lowercased),
            "text": .string(text.trimmedWhitespace),
            "done": .bool(false),
            "position": .int(position),
        ]
    }

    /// What completing a reminder writes.
    public struct Completion: Sendable, Equatable {
        /// The reminder's changed fields.
        public let reminder: [String: JSONTree]
        /// Checklist items to untick: the next occurrence of a repeating reminder starts afresh.
        public let untick: [UUID]
        /// When the next occurrence is due; nil when the reminder is now completed for good.
        public let nextDue: Date?
    }

    /// `reminder` done by `member` at `time`. One that repeats (`recurrence`) stays pending, due at
    /// its next occurrence, with its checklist unticked; any other is completed, read-only from then on.
    /// `completedDueAt` keeps the occurrence done, for an undo.
    public static func completion(
        of reminder: FamilyReminder, recurrence: WeeklyRecurrence?, by member: String, at time: Date
    ) -> Result<Completion, APIErrorDetail> {
        var fields: [String: JSONTree] = [
            "completedBy": .string(member.lowercased()), "completedAt": timestamp(time),
            "completedDueAt": timestamp(reminder.dueAt),
        ]
        guard let recurrence else {
            fields["status"] = .string(FamilyReminder.Status.completed.rawValue)
            return .success(Completion(reminder: fields, untick: [], nextDue: nil))
        }
        guard let next = recurrence.next(after: reminder.dueAt) else {
            return .failure(APIErrorDetail(.validationFailed, "This repeat has no further occurrence.", field: "dueAt"))
        }
        fields["dueAt"] = timestamp(next)
        // The next occurrence may be snoozed afresh.
        fields["snoozeCount"] = .int(0)
        fields["snoozedUntil"] = .null
        return .success(Completion(reminder: fields, untick: reminder.checklist.filter(\.done).map(\.id), nextDue: next))
    }

    /// Undoing the last completion (its completer, within `FamilyLimits.undoSeconds`; `FamilyRules`
    /// judge): pending again, due at the occurrence that was done. For a repeat that is the one
    /// before its next; a one-off's due time never moved. The checklist stays as it is.
    public static func undoCompletion(of reminder: FamilyReminder) -> Result<[String: JSONTree], APIErrorDetail> {
        guard reminder.completedBy != nil else {
            return .failure(APIErrorDetail(.validationFailed, "This reminder has no completion to undo."))
        }
        var fields: [String: JSONTree] = [
            "status": .string(FamilyReminder.Status.pending.rawValue),
            "completedBy": .null, "completedAt": .null, "completedDueAt": .null,
        ]
        if let due = reminder.completedDueAt { fields["dueAt"] = timestamp(due) }
        return .success(fields)
    }

    /// The assignee snoozes the due notice for `minutes` from `now`: one more snooze counted.
    public static func snooze(_ reminder: FamilyReminder, minutes: Int64, now: Date) -> [String: JSONTree] {
        [
            "snoozeCount": .int(reminder.snoozeCount + 1),
            "snoozedUntil": timestamp(now.addingTimeInterval(TimeInterval(minutes) * 60)),
        ]
    }

    /// The reminder's place, set now (tracking starts again, from no reading).
    public static func location(_ point: GeoPoint, accuracy: Double, at time: Date) -> [String: JSONTree] {
        [
            "latitude": .double(point.latitude), "longitude": .double(point.longitude),
            "locationAccuracy": .double(accuracy), "locationAt": timestamp(time), "tracking": .bool(true),
            "movedAt": .null, "readingLatitude": .null, "readingLongitude": .null, "readingAccuracy": .null,
            "readingAt": .null,
        ]
    }

    /// The fields of a place and its tracking, all null when a place is removed.
    public static let placeFieldNames = [
        "latitude", "longitude", "locationAccuracy", "locationAt", "tracking", "movedAt", "readingLatitude",
        "readingLongitude", "readingAccuracy", "readingAt",
    ]

    /// What a location reading writes, by `MovementRule`: nothing (ignored, within 5 m of the last
    /// reading sent, or not tracked), the reading (more than 5 m from the last one sent), or the
    /// reading with the movement that alerts the parents and the person and stops tracking. The
    /// place itself stays where it was set.
    public static func reading(_ point: GeoPoint, accuracy: Double, at time: Date, for reminder: FamilyReminder)
        -> (fields: [String: JSONTree], outcome: MovementRule.Outcome)?
    {
        guard let stored = reminder.location, stored.tracking, reminder.status == .pending else { return nil }
        let outcome = MovementRule.judge(point, accuracy: accuracy, place: stored.point, lastSent: stored.lastReading)
        let sent: [String: JSONTree] = [
            "readingLatitude": .double(point.latitude), "readingLongitude": .double(point.longitude),
            "readingAccuracy": .double(accuracy), "readingAt": timestamp(time),
        ]
        switch outcome {
        case .ignored, .unchanged:
            return ([:], outcome)
        case .updated:
            return (sent, outcome)
        case .moved:
            return (sent.merging(["tracking": .bool(false), "movedAt": timestamp(time)]) { _, new in new }, outcome)
        }
    }
}
