import Foundation
import KithCore

/// What one batch of a push (consecutive mutations of one scope, `SyncWriter.mutationsPerTransaction`)
/// reads and writes inside its scope's transaction, held in memory so that the batch costs a few
/// statements rather than six per mutation (on PostgreSQL each statement is a round trip):
/// the batch's records and applied mutation ids are read in one statement when it opens, the
/// live records a rule reads once per entity, and writes wait for `flush`, which gives them their
/// sequence values, stores them and remembers the mutation ids (`SyncTransaction.store`: one
/// statement on PostgreSQL, three on SQLite), then runs the write hooks. Every read here sees the batch's own earlier writes, so each mutation is
/// judged exactly as if the ones before it had been stored one by one.
struct PushBatch {
    let store: SyncTransaction
    let userID: String
    let hooks: [any RecordWriteHook]
    /// When the batch's mutations count as applied (epoch milliseconds).
    let now: Int64

    /// Mutation ids applied before or earlier in this batch.
    private var applied: Set<UUID>
    /// The batch's records as stored or as written so far (absent: no such record), with the
    /// sequence value of their stored state (nil while a write waits for `flush`).
    private var records: [UUID: (record: SyncRecord, seq: Int64?)]
    /// Per entity read so far, the scope's live records (the batch's writes included).
    private var live: [String: [UUID: SyncRecord]] = [:]
    /// Records written since the last flush, in the order of their last write.
    private var pending: [UUID] = []
    /// Mutation ids to remember as applied at the next flush.
    private var remembered: [UUID] = []
    /// The last sequence value flushed: what live sockets are nudged about.
    private(set) var lastSeq: Int64?

    /// Opens the batch for `mutations`, reading their records and applied ids in one statement.
    static func open(
        for mutations: [Mutation], userID: String, now: Int64, hooks: [any RecordWriteHook], in store: SyncTransaction
    ) async throws -> PushBatch {
        let (stored, applied) = try await store.recordsAndAppliedMutations(
            Array(Set(mutations.map(\.id))), Array(Set(mutations.map(\.mutationId))), by: userID)
        return PushBatch(
            store: store, userID: userID, hooks: hooks, now: now, applied: applied,
            records: stored.mapValues { (record: $0.record, seq: $0.seq) })
    }

    func wasApplied(_ mutationID: UUID) -> Bool { applied.contains(mutationID) }

    /// The record with this id in the batch's scope as it stands in the batch (deleted or not).
    /// Only ids of the batch's mutations and of records it wrote are known.
    func record(_ id: UUID) -> SyncRecord? { records[id]?.record }

    /// The record's change as a device would pull it (what a refusal sends back): a record written
    /// in this batch is flushed first, so its sequence value is real.
    mutating func change(of id: UUID) async throws -> ChangeDTO? {
        guard let entry = records[id] else { return nil }
        if let seq = entry.seq { return ChangeDTO(record: entry.record, seq: seq) }
        try await flush()
        guard let flushed = records[id], let seq = flushed.seq else {
            throw SyncStorageError("a flushed record has no sequence value")
        }
        return ChangeDTO(record: flushed.record, seq: seq)
    }

    /// The scope's live records of `entities`, by entity: each entity is read from storage once per
    /// batch, then kept in step with the batch's writes.
    mutating func liveRecords(_ entities: Set<String>) async throws -> [String: [SyncRecord]] {
        let unread = entities.subtracting(live.keys)
        if !unread.isEmpty {
            for entity in unread { live[entity] = [:] }
            for (entity, stored) in try await store.liveRecords(unread) {
                for record in stored { live[entity, default: [:]][record.id] = record }
            }
            // What this batch wrote and has not stored yet replaces what storage holds.
            for id in pending {
                if let record = records[id]?.record, unread.contains(record.entity) { keepLive(record) }
            }
        }
        var result: [String: [SyncRecord]] = [:]
        for entity in entities { result[entity] = Array(live[entity, default: [:]].values) }
        return result
    }

    /// Takes `record` as the new state of its id; stored at the next `flush`.
    mutating func write(_ record: SyncRecord) {
        pending.removeAll { $0 == record.id }
        pending.append(record.id)
        records[record.id] = (record, nil)
        keepLive(record)
    }

    /// Remembers `mutation` as applied (a retried push gets "duplicate"); stored at the next `flush`.
    mutating func remember(_ mutation: Mutation) {
        applied.insert(mutation.mutationId)
        remembered.append(mutation.mutationId)
    }

    /// Stores what the batch wrote since the last flush: sequence values in write order, the
    /// records and the applied mutation ids (`SyncTransaction.store`), then each record's hooks,
    /// all in the transaction.
    mutating func flush() async throws {
        guard !pending.isEmpty else {
            try await store.remember(remembered, userID: userID, now: now)
            remembered = []
            return
        }
        let written = try pending.map { id in
            guard let record = records[id]?.record else { throw SyncStorageError("a pending record went missing") }
            return record
        }
        let values = try await store.store(written, remembering: remembered, userID: userID, now: now)
        remembered = []
        for (record, seq) in zip(written, values) { records[record.id] = (record, seq) }
        for record in written { try await hooks.run(for: record, in: store) }
        pending = []
        lastSeq = values.upperBound
    }

    private mutating func keepLive(_ record: SyncRecord) {
        guard live[record.entity] != nil, record.scope == store.scope else { return }
        live[record.entity]?[record.id] = record.isDeleted ? nil : record
    }
}
