import Foundation

/// What a member may do with one reminder now, as the pages (and an app) offer it: each action's
/// own operation tried over the family's records and judged by `FamilyRules`
/// (`RecordOperation.trial`), so what is offered is exactly what would be accepted. A child sees
/// no Delete and no editing of what a parent asked; a completed reminder offers nothing but an
/// undo to the one who completed it, within its 30 s. Each is tried when asked: a list asks only
/// whether to offer Done.
public struct ReminderPermissions: Sendable {
    let reminder: FamilyReminder
    let records: [SyncRecord]
    let scope: String
    let actor: String
    let now: Date

    /// `actor`'s permissions on `reminder`, judged over `records` (the family's, in `scope`) at `now`.
    public init(_ reminder: FamilyReminder, records: [SyncRecord], scope: String, actor: String, now: Date) {
        self.reminder = reminder
        self.records = records
        self.scope = scope
        self.actor = actor.lowercased()
        self.now = now
    }

    private func allowed<Output>(_ operation: RecordOperation<Output>) -> Bool {
        operation.trial(over: records, scope: scope, now: now, actor: actor, rules: FamilyRules.all) == nil
    }

    /// Mark as done (unticked checklist items are asked about first, not refused).
    public var complete: Bool { allowed(ReminderOperations.complete(reminder.id, evenIfUnticked: true, in: scope)) }

    /// Change what it asks: title, due time, repeat, assignee, checklist. A change of the title
    /// stands for them all: a child on a parent's reminder, or anyone on a completed one, is
    /// refused them alike.
    public var editDetails: Bool {
        allowed(
            ReminderOperations.change(reminder.id, title: reminder.title + " ·", dueAt: nil, assignee: nil, in: scope))
    }

    /// Set or change its place (the assignee may, on a reminder a parent made for them).
    public var setPlace: Bool {
        guard let somewhere = GeoPoint(latitude: 0, longitude: 0) else { return false }
        let place = FamilyReminderInput.Place(point: somewhere, accuracy: 0)
        return allowed(ReminderOperations.setPlace(reminder.id, place, in: scope))
    }

    /// Tick and untick its checklist (false when it has none).
    public var tick: Bool {
        guard let item = reminder.checklist.first else { return false }
        return allowed(ReminderOperations.setItem(item.id, of: reminder.id, done: !item.done, in: scope))
    }

    public var delete: Bool { allowed(ReminderOperations.delete(reminder.id, in: scope)) }

    /// Take back the reader's own completion of a moment ago.
    public var undo: Bool {
        reminder.completedBy == actor && allowed(ReminderOperations.undoCompletion(reminder.id, in: scope))
    }

    /// Snooze it now (the assignee, once due, while the family's limit leaves snoozes).
    public var snooze: Bool { allowed(ReminderOperations.snooze(reminder.id, minutes: 10, in: scope)) }
}
