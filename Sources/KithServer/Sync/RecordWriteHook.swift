import Foundation
import KithCore

/// Work that must commit with a synced record's change, in its transaction: scheduling a
/// reminder's notices when the reminder is written (`FamilyNoticeScheduler`). `SyncWriter` calls
/// each hook for every record of its `entities` it stores, from any writer (push, web pages, jobs),
/// after the record and before the commit, so the two are stored together or not at all.
protocol RecordWriteHook: Sendable {
    var entities: Set<String> { get }
    func written(_ record: SyncRecord, in store: SyncTransaction) async throws
}

extension Array where Element == any RecordWriteHook {
    /// Calls each hook that watches `record`'s entity, in the transaction that stored it.
    func run(for record: SyncRecord, in store: SyncTransaction) async throws {
        for hook in self where hook.entities.contains(record.entity) { try await hook.written(record, in: store) }
    }
}
