import Foundation
import KithCore

/// A repeat's occurrence not done by the time the next one's notices begin is missed: the reminder
/// moves on to the next occurrence (its snoozes and checklist start afresh, as after a completion),
/// written by the server through `SyncWriter` so devices and pages follow and the next occurrence's
/// notices are planned, and the missed notices are added in the same transaction. Without this a
/// repeat nobody ticked stayed on its old occurrence and was never told again.
extension FamilyNoticeJob {
    func moveOn(
        past reminder: FamilyReminder, in scope: String, family: FamilySnapshotOfRecords,
        notices: @escaping @Sendable (SyncTransaction, Date) async throws -> [ScopeChange]
    ) async throws {
        let (delivered, changes) = try await sync.inScope(scope) { [writer, stamps, ids] store in
            // Read again in the scope's turn: a completion or an edit a moment ago wins.
            guard let record = try await store.record(reminder.id), !record.isDeleted,
                record.fields[ReminderFields.status]?.stringValue == FamilyReminder.Status.pending.rawValue,
                record.fields[ReminderFields.dueAt]?.stringValue.flatMap(WireCoding.parseTimestamp)?.epochMillis
                    == reminder.dueAt.epochMillis,
                case .success(let recurrence?) = FamilyRules.recurrence(record.fields, timeZone: family.timeZone),
                let next = recurrence.next(after: reminder.dueAt)
            else { return ([ScopeChange](), [ScopeChange]()) }
            var changes: [ScopeChange] = []
            let fields: [String: JSONTree] = [
                ReminderFields.dueAt: ReminderFields.timestamp(next), ReminderFields.snoozeCount: .int(0),
                ReminderFields.snoozedUntil: .null,
            ]
            let moved = Mutation(
                mutationId: ids.uuid(), entity: FamilyEntities.reminder.name, id: reminder.id, scope: scope,
                op: .upsert,
                fields: fields, hlc: stamps.stamp(after: [record]))
            if let change = try await writer.writeAsServer(moved, in: store) { changes.append(change) }
            let items =
                try await store.liveRecords([FamilyEntities.checklistItem.name])[FamilyEntities.checklistItem.name]
                ?? []
            for item in items
            where item.fields[ReminderFields.reminderId]?.stringValue?.lowercased() == reminder.id.lowercased
                && item.fields[ReminderFields.done] == .bool(true)
            {
                let untick = Mutation(
                    mutationId: ids.uuid(), entity: FamilyEntities.checklistItem.name, id: item.id, scope: scope,
                    op: .upsert,
                    fields: [ReminderFields.done: .bool(false)], hlc: stamps.stamp(after: [item]))
                if let change = try await writer.writeAsServer(untick, in: store) { changes.append(change) }
            }
            return (try await notices(store, next), changes)
        }
        await writer.announce(changes)
        await notifier.committed(delivered)
    }
}
