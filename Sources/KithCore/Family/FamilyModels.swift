import Foundation

/// A member of a family as the screens show them.
public struct FamilyMember: Sendable, Equatable, Identifiable {
    public enum Role: String, Sendable, Codable { case parent, child }

    /// The member's account id (lower case).
    public let id: String
    public let displayName: String
    public let role: Role

    public init?(fields: [String: JSONTree]) {
        guard let user = fields["userId"]?.stringValue?.lowercased(), let name = fields["displayName"]?.stringValue,
            let role = fields["role"]?.stringValue.flatMap(Role.init(rawValue:))
        else { return nil }
        id = user
        displayName = name
        self.role = role
    }
}

/// A checklist line of a reminder.
public struct ChecklistItem: Sendable, Equatable, Identifiable {
    public let id: UUID
    public let text: String
    public let done: Bool
    public let position: Int64

    public init?(id: UUID, fields: [String: JSONTree]) {
        guard let text = fields[ReminderFields.text]?.stringValue else { return nil }
        self.id = id
        self.text = text
        done = fields[ReminderFields.done]?.boolValue ?? false
        position = fields[ReminderFields.position]?.intValue ?? 0
    }
}

/// A reminder with its checklist in order.
public struct FamilyReminder: Sendable, Equatable, Identifiable {
    public enum Status: String, Sendable, Codable, CaseIterable { case pending, completed }

    public let id: UUID
    public let title: String
    public let dueAt: Date
    public let assigneeId: String
    public let creatorId: String
    public let status: Status
    public let completedAt: Date?
    public let completedBy: String?
    /// The due time of the occurrence the last completion finished: where an undo puts `dueAt` back.
    public let completedDueAt: Date?
    /// What the last completion left unticked, for the parents' notice ("not ticked: Milk, Bread").
    public let completedUnticked: [String]
    /// How it repeats, when it does (counted in the family's time zone).
    public let recurrence: Recurrence?
    /// "FREQ=WEEKLY;…" when it repeats.
    public var repeatRule: String? { recurrence?.rrule }
    public let checklist: [ChecklistItem]
    /// How often this occurrence's due notice was snoozed, and until when the last snooze lasts.
    public let snoozeCount: Int64
    public let snoozedUntil: Date?
    /// Where it was set, if it was.
    public let location: ReminderLocation?
    /// When the assignee was 20 m or more from `location` (tracking then stops).
    public let movedAt: Date?

    public init?(id: UUID, fields: [String: JSONTree], checklist: [ChecklistItem], timeZone: TimeZone) {
        guard let title = fields[ReminderFields.title]?.stringValue,
            let due = fields[ReminderFields.dueAt]?.stringValue.flatMap(WireCoding.parseTimestamp),
            let assignee = fields[ReminderFields.assigneeId]?.stringValue?.lowercased(),
            let creator = fields[ReminderFields.creatorId]?.stringValue?.lowercased()
        else { return nil }
        self.id = id
        self.title = title
        dueAt = due
        assigneeId = assignee
        creatorId = creator
        status = fields[ReminderFields.status]?.stringValue.flatMap(Status.init(rawValue:)) ?? .pending
        completedAt = fields[ReminderFields.completedAt]?.stringValue.flatMap(WireCoding.parseTimestamp)
        completedBy = fields[ReminderFields.completedBy]?.stringValue?.lowercased()
        completedDueAt = fields[ReminderFields.completedDueAt]?.stringValue.flatMap(WireCoding.parseTimestamp)
        completedUnticked = (fields[ReminderFields.completedUnticked]?.stringValue ?? "").split(separator: "\n")
            .map(String.init)
        if case .success(let recurrence?) = FamilyRules.recurrence(fields, timeZone: timeZone) {
            self.recurrence = recurrence
        } else {
            recurrence = nil
        }
        self.checklist = checklist.sorted { ($0.position, $0.id.uuidString) < ($1.position, $1.id.uuidString) }
        snoozeCount = fields[ReminderFields.snoozeCount]?.intValue ?? 0
        snoozedUntil = fields[ReminderFields.snoozedUntil]?.stringValue.flatMap(WireCoding.parseTimestamp)
        location = ReminderLocation(fields: fields)
        movedAt = fields[ReminderFields.movedAt]?.stringValue.flatMap(WireCoding.parseTimestamp)
    }
}

extension FamilyReminder {
    /// The checklist items not ticked, in order: completing the reminder asks about them first.
    public var unticked: [ChecklistItem] { checklist.filter { !$0.done } }
}

/// Where a reminder was set: a point, how accurate the reading was (metres), when, and whether the
/// assignee's movements are still tracked against it.
public struct ReminderLocation: Sendable, Equatable {
    public let point: GeoPoint
    public let accuracy: Double
    public let capturedAt: Date?
    public let tracking: Bool
    /// The last reading the assignee's device sent, if any: where they were last seen.
    public let lastReading: GeoPoint?

    public init(point: GeoPoint, accuracy: Double, capturedAt: Date?, tracking: Bool, lastReading: GeoPoint? = nil) {
        self.point = point
        self.accuracy = accuracy
        self.capturedAt = capturedAt
        self.tracking = tracking
        self.lastReading = lastReading
    }

    public init?(fields: [String: JSONTree]) {
        guard let latitude = fields[ReminderFields.latitude]?.doubleValue,
            let longitude = fields[ReminderFields.longitude]?.doubleValue,
            let point = GeoPoint(latitude: latitude, longitude: longitude)
        else { return nil }
        self.point = point
        accuracy = fields[ReminderFields.locationAccuracy]?.doubleValue ?? 0
        capturedAt = fields[ReminderFields.locationAt]?.stringValue.flatMap(WireCoding.parseTimestamp)
        tracking = fields[ReminderFields.tracking]?.boolValue ?? true
        lastReading = Self.reading(fields)
    }

    /// The reading stated in `fields` (`readingLatitude`, `readingLongitude`), if any.
    static func reading(_ fields: [String: JSONTree]) -> GeoPoint? {
        guard let latitude = fields[ReminderFields.readingLatitude]?.doubleValue,
            let longitude = fields[ReminderFields.readingLongitude]?.doubleValue
        else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }
}

/// Which reminders a list shows (by status, assigned to me / others / a member, dates).
public struct ReminderFilter: Sendable, Equatable {
    public enum Assignee: Sendable, Equatable {
        case anyone
        case me
        case others
        case member(String)
    }

    public var status: FamilyReminder.Status?
    public var assignee: Assignee
    /// Due on or after `from` and before `until`, when set.
    public var from: Date?
    public var until: Date?

    public init(
        status: FamilyReminder.Status? = nil, assignee: Assignee = .anyone, from: Date? = nil, until: Date? = nil
    ) {
        self.status = status
        self.assignee = assignee
        self.from = from
        self.until = until
    }

    func accepts(_ reminder: FamilyReminder, viewer: String) -> Bool {
        if let status, reminder.status != status { return false }
        switch assignee {
        case .anyone: break
        case .me: if reminder.assigneeId != viewer.lowercased() { return false }
        case .others: if reminder.assigneeId == viewer.lowercased() { return false }
        case .member(let id): if reminder.assigneeId != id.lowercased() { return false }
        }
        if let from, reminder.dueAt < from { return false }
        if let until, reminder.dueAt >= until { return false }
        return true
    }
}

/// What the Family screens show, from a family's records, the same on every side.
public struct FamilyBook: Sendable {
    public let name: String?
    public let timeZone: TimeZone
    /// How often one occurrence's due notice may be snoozed.
    public let snoozeLimit: Int64
    /// Parents first, then by name.
    public let members: [FamilyMember]
    /// Every reminder, due first.
    public let reminders: [FamilyReminder]

    public init(records: [SyncRecord]) {
        let live = Dictionary(grouping: records.filter { !$0.isDeleted }, by: \.entity)
        let info = live[FamilyEntities.info.name]?.first
        name = info?.fields["name"]?.stringValue
        timeZone =
            info?.fields["timeZone"]?.stringValue.flatMap(TimeZone.init(identifier:)) ?? TimeZone(secondsFromGMT: 0)
            ?? .gmt
        snoozeLimit = info?.fields["snoozeLimit"]?.intValue ?? FamilyLimits.defaultSnoozeLimit
        members = (live[FamilyEntities.member.name] ?? []).compactMap { FamilyMember(fields: $0.fields) }.sorted {
            ($0.role == .parent ? 0 : 1, $0.displayName.lowercased()) < (
                $1.role == .parent ? 0 : 1, $1.displayName.lowercased()
            )
        }
        let items = Dictionary(grouping: live[FamilyEntities.checklistItem.name] ?? []) {
            $0.fields[ReminderFields.reminderId]?.stringValue?.lowercased() ?? ""
        }
        let zone = timeZone
        reminders = (live[FamilyEntities.reminder.name] ?? []).compactMap { record in
            FamilyReminder(
                id: record.id, fields: record.fields,
                checklist: (items[record.id.lowercased] ?? []).compactMap {
                    ChecklistItem(id: $0.id, fields: $0.fields)
                },
                timeZone: zone)
        }.sorted { ($0.dueAt, $0.id.uuidString) < ($1.dueAt, $1.id.uuidString) }
    }

    /// The reminders `filter` lets through for `viewer` (a user id), due first.
    public func reminders(_ filter: ReminderFilter, viewer: String) -> [FamilyReminder] {
        reminders.filter { filter.accepts($0, viewer: viewer) }
    }

    public func member(_ id: String) -> FamilyMember? { members.first { $0.id == id.lowercased() } }
}
