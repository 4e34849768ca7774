import Foundation

/// The fields of `family.reminder` and `family.checklistItem` records as people's actions write
/// them, the same from a device (`FamilyStore`) and from the web pages (`ReminderService`), so
/// both complete, repeat and reset a checklist the one way. `FamilyRules` then judge them.
public enum ReminderFields {
    // The field names of `family.reminder` and `family.checklistItem`, spelled once; the web
    // form's fields have the same names, so a rule's refusal lands next to its field.
    public static let title = "title"
    public static let dueAt = "dueAt"
    public static let assigneeId = "assigneeId"
    public static let creatorId = "creatorId"
    public static let createdAt = "createdAt"
    public static let status = "status"
    public static let completedAt = "completedAt"
    public static let completedBy = "completedBy"
    public static let completedDueAt = "completedDueAt"
    public static let completedUnticked = "completedUnticked"
    public static let repeatFrequency = "repeatFrequency"
    public static let repeatDays = "repeatDays"
    public static let repeatMonthDay = "repeatMonthDay"
    public static let repeatMonthWeekday = "repeatMonthWeekday"
    public static let repeatInterval = "repeatInterval"
    public static let repeatStart = "repeatStart"
    public static let repeatTime = "repeatTime"
    public static let snoozeCount = "snoozeCount"
    public static let snoozedUntil = "snoozedUntil"
    public static let latitude = "latitude"
    public static let longitude = "longitude"
    public static let locationAccuracy = "locationAccuracy"
    public static let locationAt = "locationAt"
    public static let tracking = "tracking"
    public static let movedAt = "movedAt"
    public static let readingLatitude = "readingLatitude"
    public static let readingLongitude = "readingLongitude"
    public static let readingAccuracy = "readingAccuracy"
    public static let readingAt = "readingAt"
    public static let reminderId = "reminderId"
    public static let text = "text"
    public static let done = "done"
    public static let position = "position"

    public static func timestamp(_ date: Date) -> JSONTree { .string(WireCoding.formatTimestamp(date)) }

    /// A new pending reminder, with its repeat when it has one.
    public static func new(
        title: String, dueAt: Date, assignee: String, creator: String, createdAt: Date, recurrence: Recurrence?
    ) -> [String: JSONTree] {
        var fields: [String: JSONTree] = [
            ReminderFields.title: .string(title.trimmedWhitespace),
            ReminderFields.dueAt: timestamp(dueAt),
            ReminderFields.assigneeId: .string(assignee.lowercased()),
            ReminderFields.creatorId: .string(creator.lowercased()),
            ReminderFields.createdAt: timestamp(createdAt),
            ReminderFields.status: .string(FamilyReminder.Status.pending.rawValue),
        ]
        if recurrence != nil { fields.merge(repeating(recurrence)) { _, new in new } }
        return fields
    }

    /// Only the fields given change.
    public static func edit(title: String? = nil, dueAt: Date? = nil, assignee: String? = nil) -> [String: JSONTree] {
        var fields: [String: JSONTree] = [:]
        if let title { fields[ReminderFields.title] = .string(title.trimmedWhitespace) }
        if let dueAt { fields[ReminderFields.dueAt] = timestamp(dueAt) }
        if let assignee { fields[ReminderFields.assigneeId] = .string(assignee.lowercased()) }
        return fields
    }

    /// Every `repeat…` field (`FamilyRules.repeatFields`); all null when it does not repeat (an
    /// edit that stops a repeat), and those the pattern does not use null (a weekly repeat made
    /// monthly loses its days).
    public static func repeating(_ recurrence: Recurrence?) -> [String: JSONTree] {
        var fields = FamilyRules.repeatFields.reduce(into: [String: JSONTree]()) { $0[$1] = .null }
        guard let recurrence else { return fields }
        fields[ReminderFields.repeatFrequency] = .string(recurrence.frequency.rawValue)
        fields[ReminderFields.repeatInterval] = .int(Int64(recurrence.interval))
        fields[ReminderFields.repeatStart] = .string(recurrence.start.description)
        fields[ReminderFields.repeatTime] = .string(recurrence.time.description)
        switch recurrence.pattern {
        case .daily: break
        case .weekly(let days):
            fields[ReminderFields.repeatDays] = .string(days.sorted().map(\.code).joined(separator: ","))
        case .monthlyOnDay(let day): fields[ReminderFields.repeatMonthDay] = .int(Int64(day))
        case .monthlyOnWeekday(let place): fields[ReminderFields.repeatMonthWeekday] = .string(place.code)
        }
        return fields
    }

    public static func item(of reminder: UUID, text: String, position: Int64) -> [String: JSONTree] {
        [
            ReminderFields.reminderId: .string(reminder.lowercased),
            ReminderFields.text: .string(text.trimmedWhitespace),
            ReminderFields.done: .bool(false),
            ReminderFields.position: .int(position),
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
    /// `completedDueAt` keeps the occurrence done, for an undo; `completedUnticked` the items left
    /// unticked, for the parents' notice.
    public static func completion(
        of reminder: FamilyReminder, recurrence: Recurrence?, by member: String, at time: Date
    ) -> Result<Completion, APIErrorDetail> {
        var fields: [String: JSONTree] = [
            ReminderFields.completedBy: .string(member.lowercased()), ReminderFields.completedAt: timestamp(time),
            ReminderFields.completedDueAt: timestamp(reminder.dueAt),
            ReminderFields.completedUnticked: untickedText(reminder.unticked.map(\.text)),
        ]
        guard let recurrence else {
            fields[ReminderFields.status] = .string(FamilyReminder.Status.completed.rawValue)
            return .success(Completion(reminder: fields, untick: [], nextDue: nil))
        }
        guard let next = recurrence.next(after: reminder.dueAt) else {
            return .failure(
                APIErrorDetail(.validationFailed, "This repeat has no further occurrence.", field: ReminderFields.dueAt)
            )
        }
        fields[ReminderFields.dueAt] = timestamp(next)
        // The next occurrence may be snoozed afresh.
        fields[ReminderFields.snoozeCount] = .int(0)
        fields[ReminderFields.snoozedUntil] = .null
        return .success(
            Completion(reminder: fields, untick: reminder.checklist.filter(\.done).map(\.id), nextDue: next))
    }

    /// The longest `completedUnticked` holds (`FamilyEntities.reminder` declares it).
    public static let untickedTextLength = 2_000

    /// The texts of the items left unticked, a line each, as `completedUnticked` keeps them: null
    /// when every item was ticked; whole lines while they fit, then "…and N more".
    public static func untickedText(_ texts: [String]) -> JSONTree {
        guard !texts.isEmpty else { return .null }
        var kept: [String] = []
        for (index, text) in texts.enumerated() {
            let rest = texts.count - index
            let more = rest > 1 ? "\n…and \(rest - 1) more" : ""
            let line = text.trimmedWhitespace.replacingOccurrences(of: "\n", with: " ")
            let candidate = (kept + [line]).joined(separator: "\n")
            if candidate.count + more.count > untickedTextLength {
                kept.append("…and \(rest) more")
                break
            }
            kept.append(line)
        }
        return .string(kept.joined(separator: "\n"))
    }

    /// Undoing the last completion (its completer, within `FamilyLimits.undoSeconds`; `FamilyRules`
    /// judge): pending again, due at the occurrence that was done. For a repeat that is the one
    /// before its next; a one-off's due time never moved. The checklist stays as it is.
    public static func undoCompletion(of reminder: FamilyReminder) -> Result<[String: JSONTree], APIErrorDetail> {
        guard reminder.completedBy != nil else {
            return .failure(APIErrorDetail(.validationFailed, "This reminder has no completion to undo."))
        }
        var fields: [String: JSONTree] = [
            ReminderFields.status: .string(FamilyReminder.Status.pending.rawValue),
            ReminderFields.completedBy: .null, ReminderFields.completedAt: .null, ReminderFields.completedDueAt: .null,
        ]
        if let due = reminder.completedDueAt { fields[ReminderFields.dueAt] = timestamp(due) }
        return .success(fields)
    }

    /// The assignee snoozes the due notice for `minutes` from `now`: one more snooze counted.
    public static func snooze(_ reminder: FamilyReminder, minutes: Int64, now: Date) -> [String: JSONTree] {
        [
            ReminderFields.snoozeCount: .int(reminder.snoozeCount + 1),
            ReminderFields.snoozedUntil: timestamp(now.addingTimeInterval(TimeInterval(minutes) * 60)),
        ]
    }

    /// The reminder's place, set now (tracking starts again, from no reading).
    public static func location(_ point: GeoPoint, accuracy: Double, at time: Date) -> [String: JSONTree] {
        [
            ReminderFields.latitude: .double(point.latitude), ReminderFields.longitude: .double(point.longitude),
            ReminderFields.locationAccuracy: .double(accuracy), ReminderFields.locationAt: timestamp(time),
            ReminderFields.tracking: .bool(true),
            ReminderFields.movedAt: .null, ReminderFields.readingLatitude: .null,
            ReminderFields.readingLongitude: .null, ReminderFields.readingAccuracy: .null,
            ReminderFields.readingAt: .null,
        ]
    }

    /// The fields of a place and its tracking, all null when a place is removed.
    public static let placeFieldNames = [
        ReminderFields.latitude, ReminderFields.longitude, ReminderFields.locationAccuracy, ReminderFields.locationAt,
        ReminderFields.tracking, ReminderFields.movedAt, ReminderFields.readingLatitude,
        ReminderFields.readingLongitude, ReminderFields.readingAccuracy, ReminderFields.readingAt,
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
            ReminderFields.readingLatitude: .double(point.latitude),
            ReminderFields.readingLongitude: .double(point.longitude),
            ReminderFields.readingAccuracy: .double(accuracy), ReminderFields.readingAt: timestamp(time),
        ]
        switch outcome {
        case .ignored, .unchanged:
            return ([:], outcome)
        case .updated:
            return (sent, outcome)
        case .moved:
            return (
                sent.merging([ReminderFields.tracking: .bool(false), ReminderFields.movedAt: timestamp(time)]) {
                    _, new in new
                }, outcome
            )
        }
    }
}
