import Foundation

/// The Family app's synced entities (DOMAINS.md "Family"), all in a family's scope
/// (`family:<id>`). The family itself and its members are the server's bookkeeping (its membership
/// table decides who reads the scope); they are mirrored into the scope as `family.info` and
/// `family.member` records so every device knows the names, roles and time zone the rules need.
/// Rules across records are `FamilyRules`.
public enum FamilyEntities {
    public static let roles = ["parent", "child"]
    public static let statuses = ["pending", "completed"]

    /// The family's name and IANA time zone (recurrences are counted in it). Written by the server.
    public static let info = EntityDeclaration(
        name: "family.info", scope: .family,
        fields: [
            FieldDeclaration("name", .string(maxLength: 60)),
            FieldDeclaration("timeZone", .string(maxLength: 64)),
            // How often the assignee may snooze one occurrence's due notice (3 unless a parent sets it).
            FieldDeclaration("snoozeLimit", .integer(FamilyLimits.snoozeLimits), optional: true),
        ],
        writeRule: .server)

    /// One member: the account, the name the family sees, the role. Written by the server.
    public static let member = EntityDeclaration(
        name: "family.member", scope: .family,
        fields: [
            FieldDeclaration("userId", .uuid),
            FieldDeclaration("displayName", .string(maxLength: 50)),
            FieldDeclaration("role", .choice(roles)),
        ],
        writeRule: .server)

    /// A reminder for one member. Recurring when `repeatInterval`, `repeatStart` and `repeatTime`
    /// ("HH:mm") are set, in the family's time zone, by `repeatFrequency` (absent: weekly, as
    /// every repeat was before daily and monthly ones): daily; weekly on `repeatDays` ("MO,WE");
    /// monthly on `repeatMonthDay` (15) or `repeatMonthWeekday` ("2TU", "-1FR"). `dueAt` is then
    /// the occurrence due next. `FamilyRules.recurrence` reads them.
    public static let reminder = EntityDeclaration(
        name: "family.reminder", scope: .family,
        fields: [
            FieldDeclaration(ReminderFields.title, .string(maxLength: 200)),
            FieldDeclaration(ReminderFields.dueAt, .timestamp),
            FieldDeclaration(ReminderFields.assigneeId, .uuid),
            FieldDeclaration(ReminderFields.creatorId, .uuid),
            // When it was made, by the creator's clock: the server indexes reminders by
            // (assignee, createdAt) and (family, createdAt).
            FieldDeclaration(ReminderFields.createdAt, .timestamp),
            FieldDeclaration(ReminderFields.status, .choice(statuses)),
            FieldDeclaration(ReminderFields.completedAt, .timestamp, optional: true),
            FieldDeclaration(ReminderFields.completedBy, .uuid, optional: true),
            // The due time of the occurrence the last completion finished (a one-off's own dueAt):
            // undoing it within `FamilyLimits.undoSeconds` makes that occurrence due again.
            FieldDeclaration(ReminderFields.completedDueAt, .timestamp, optional: true),
            // The items the last completion left unticked, a line each (the parents' notice says them).
            FieldDeclaration(
                ReminderFields.completedUnticked, .string(maxLength: ReminderFields.untickedTextLength),
                optional: true),
            FieldDeclaration(
                ReminderFields.repeatFrequency, .choice(RepeatFrequency.allCases.map(\.rawValue)), optional: true),
            FieldDeclaration(ReminderFields.repeatDays, .string(maxLength: 20), optional: true),
            // The widest of the frequencies' ranges (daily); `FamilyRules` hold each to its own.
            FieldDeclaration(
                ReminderFields.repeatInterval, .integer(wide(RepeatFrequency.daily.intervals)), optional: true),
            FieldDeclaration(ReminderFields.repeatMonthDay, .integer(wide(RepeatPattern.monthDays)), optional: true),
            FieldDeclaration(ReminderFields.repeatMonthWeekday, .string(maxLength: 4), optional: true),
            FieldDeclaration(ReminderFields.repeatStart, .localDate, optional: true),
            FieldDeclaration(ReminderFields.repeatTime, .string(maxLength: 5), optional: true),
            // Snoozing the due notice: how often for this occurrence, and until when.
            FieldDeclaration(
                ReminderFields.snoozeCount, .integer(0...FamilyLimits.snoozeLimits.upperBound), optional: true),
            FieldDeclaration(ReminderFields.snoozedUntil, .timestamp, optional: true),
            // Where it was set (WGS 84 degrees, accuracy in metres), tracked until the assignee
            // is 20 m or more away from it (`MovementRule`); `movedAt` is when they were.
            FieldDeclaration(ReminderFields.latitude, .number(GeoPoint.latitudes), optional: true),
            FieldDeclaration(ReminderFields.longitude, .number(GeoPoint.longitudes), optional: true),
            FieldDeclaration(ReminderFields.locationAccuracy, .number(0...100_000), optional: true),
            FieldDeclaration(ReminderFields.locationAt, .timestamp, optional: true),
            FieldDeclaration(ReminderFields.tracking, .bool, optional: true),
            FieldDeclaration(ReminderFields.movedAt, .timestamp, optional: true),
            // The last reading the assignee's device sent: the next is sent once it is more than
            // 5 m from this one; the place itself never moves with readings.
            FieldDeclaration(ReminderFields.readingLatitude, .number(GeoPoint.latitudes), optional: true),
            FieldDeclaration(ReminderFields.readingLongitude, .number(GeoPoint.longitudes), optional: true),
            FieldDeclaration(ReminderFields.readingAccuracy, .number(0...100_000), optional: true),
            FieldDeclaration(ReminderFields.readingAt, .timestamp, optional: true),
        ])

    /// One line of a reminder's checklist: a record of its own, so two members ticking different
    /// items at once both survive the merge.
    public static let checklistItem = EntityDeclaration(
        name: "family.checklistItem", scope: .family,
        fields: [
            FieldDeclaration(ReminderFields.reminderId, .uuid),
            FieldDeclaration(ReminderFields.text, .string(maxLength: 200)),
            FieldDeclaration(ReminderFields.done, .bool),
            FieldDeclaration(ReminderFields.position, .integer(0...1_000)),
        ])

    public static let all = [info, member, reminder, checklistItem]

    /// A range of the calendar's `Int`s as a declaration's limits.
    private static func wide(_ range: ClosedRange<Int>) -> ClosedRange<Int64> {
        Int64(range.lowerBound)...Int64(range.upperBound)
    }
}
