import Foundation
import GRDB
import KithCore

/// What the sync engine (and status displays) need from the store.
extension LocalStore {
    /// Changes made here and not yet acknowledged by the server.
    public func pendingCount() throws -> Int {
        try storageErrors { try writer.read(Outbox.count) }
    }

    public func observePendingCount() -> AsyncValueObservation<Int> {
        observe(Outbox.count)
    }

    /// When a sync last completed (push and pull), nil if never.
    public func lastSyncAt() throws -> Date? {
        try storageErrors { try writer.read { db in try SyncState.load(db)?.lastSyncAt } }
    }

    /// Changes the server refused, newest first. They are no longer in the outbox.
    public func rejections() throws -> [SyncRejection] {
        try storageErrors {
            try writer.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM sync_rejections ORDER BY at DESC").compactMap { row in
                    guard let mutationId = UUID(text: row["mutation_id"]), let recordId = UUID(text: row["record_id"])
                    else { return nil }
                    return SyncRejection(
                        mutationId: mutationId, entity: row["entity"], recordId: recordId, code: row["code"],
                        message: row["message"], at: Date(timeIntervalSince1970: row["at"]))
                }
            }
        }
    }

    /// Forgets the refused changes once the person has seen them.
    public func clearRejections() throws {
        try storageErrors { try writer.write { db in try db.execute(sql: "DELETE FROM sync_rejections") } }
    }

    // MARK: For SyncEngine

    func pendingBatch(limit: Int, maxBytes: Int) throws -> [Mutation] {
        try pendingBatch(limit: limit, maxBytes: maxBytes, after: nil).mutations
    }

    /// The next batch to push: the oldest changes queued after `seq` (a batch still on its way).
    func pendingBatch(limit: Int, maxBytes: Int, after seq: Int64?) throws -> OutboxBatch {
        try storageErrors {
            try writer.read { db in try Outbox.oldest(limit: limit, maxBytes: maxBytes, after: seq, db) }
        }
    }

    func cursor() throws -> String? {
        try storageErrors { try writer.read { db in try SyncState.load(db)?.cursor } }
    }

    /// Takes the server's answer to a push, in one transaction. Acknowledged mutations leave the
    /// outbox. Refused ones leave it too, are recorded as rejections, and their record goes back to
    /// the server's state plus this device's other queued changes; except those refused for this
    /// device's clock (`clock_skew`), which no person can fix: they stay queued, re-stamped by the
    /// server's time (`ClockRebase`), to be sent again.
    func complete(_ response: PushResponse) throws -> PushCompletion {
        let at = now()
        return try storageErrors {
            try writer.write { db in
                var completion = PushCompletion()
                if let serverTime = response.serverTime {
                    let offset = ClockRebase.offset(serverTime: serverTime, deviceTime: at.epochMillis)
                    try SyncState.saveClockOffset(offset, db)
                }
                for result in response.results where result.status == .rejected {
                    if result.code == MutationResult.clockSkew, response.serverTime != nil {
                        completion.heldBack += 1
                        continue
                    }
                    guard
                        let row = try Row.fetchOne(
                            try db.cachedStatement(sql: "SELECT entity, record_id FROM outbox WHERE mutation_id = ?"),
                            arguments: [result.mutationId.lowercased])
                    else { continue }
                    // Gone before its record is rebuilt from the server's state and what stays queued.
                    try Outbox.remove([result.mutationId], db)
                    let entity: String = row["entity"]
                    guard let recordId = UUID(text: row["record_id"]) else { continue }
                    let rejection = SyncRejection(
                        mutationId: result.mutationId, entity: entity, recordId: recordId, code: result.code ?? "rejected",
                        message: result.message ?? "The server refused this change.", at: at)
                    try db.execute(
                        sql: """
                            INSERT OR REPLACE INTO sync_rejections (mutation_id, entity, record_id, code, message, at)
                            VALUES (?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            rejection.mutationId.lowercased, entity, recordId.lowercased, rejection.code, rejection.message,
                            at.timeIntervalSince1970,
                        ])
                    // The server's state already holds this batch's applied mutations, so those
                    // still queued here merge into it without changing it.
                    try rebuild(entity, recordId, serverState: result.record?.record, db)
                    completion.rejections.append(rejection)
                }
                try Outbox.remove(response.results.filter { $0.status != .rejected }.map(\.mutationId), db)
                if completion.heldBack > 0, let serverTime = response.serverTime {
                    completion.restamped = try ClockRebase.restamp(
                        serverTime: serverTime, deviceTime: at.epochMillis, storage: storage, db)
                }
                return completion
            }
        }
    }

    /// A refused change must not linger locally: the record becomes the server's state (if any)
    /// with this device's remaining queued changes merged on top.
    private func rebuild(_ entity: String, _ id: UUID, serverState: SyncRecord?, _ db: Database) throws {
        var record = serverState
        for mutation in try Outbox.mutations(of: entity, id, db) {
            var merged = record ?? SyncRecord(entity: mutation.entity, id: mutation.id, scope: mutation.scope)
            merged.merge(mutation)
            record = merged
        }
        if let record {
            try storage.store(record, db)
        } else {
            try storage.forget(entity, id, db)
        }
    }

    func notePushFailure(_ mutations: [Mutation], error: String) throws {
        try storageErrors {
            try writer.write { db in try Outbox.noteFailure(mutations.map(\.mutationId), error: error, db) }
        }
    }

    /// Applies one pulled page by the merge rule and moves the cursor, in one transaction, so a
    /// page is either wholly applied or pulled again. Scopes the page says are gone (a family left
    /// or removed from) lose every record and queued change here. Returns the records that changed
    /// here and the conflicts met: fields this device changed (not yet sent) that another device
    /// changed too.
    func apply(_ page: PullResponse) throws -> PulledPage {
        let time = now()
        return try storageErrors {
            try writer.write { db in
                let state = try SyncState.load(db)
                let nowMillis = state?.stampingTime(time) ?? time.epochMillis
                var clock = state?.clock ?? HybridLogicalClock(node: clientId.lowercased)
                var result = PulledPage()
                var received: HLC?
                // Only a record with changes queued here can conflict: one query per page, not per record.
                let known = page.changes.filter { catalog[$0.entity] != nil }
                let keys = known.map { RecordStorage.Key(entity: $0.entity, id: $0.id) }
                let queued = try Outbox.queuedRecords(among: keys, db)
                var held = try storage.loadAll(Set(keys), db)
                for change in known {
                    let incoming = change.record
                    let key = RecordStorage.Key(entity: change.entity, id: change.id)
                    let before = held[key]
                    if let before, queued.contains(key), let conflict = try Self.conflict(between: before, and: incoming, db) {
                        result.conflicts.append(conflict)
                        try ConflictLog.append(conflict, at: now(), db)
                    }
                    var record = before ?? SyncRecord(entity: change.entity, id: change.id, scope: change.scope)
                    if record.merge(incoming) == .changed {
                        try storage.store(record, db)
                        // A page may bring a record twice; the second merges with the first.
                        held[key] = record
                        result.changes.append(RecordChange(entity: record.entity, id: record.id, deleted: record.isDeleted))
                    }
                    // Later local edits must stamp after everything seen, whatever this clock says.
                    if let latest = incoming.latestStamp {
                        clock.receive(latest, now: nowMillis)
                        received = max(received ?? latest, latest)
                    }
                }
                if let received { try SyncState.saveReceived(received, db) }
                // The account's own scope is never gone; a server saying so must not wipe its data.
                for scope in page.gone ?? [] where scope != userScope {
                    result.changes += try storage.forgetScope(scope, db)
                    try Outbox.removeScope(scope, db)
                }
                try SyncState.saveClock(clock, db)
                try SyncState.saveCursor(page.cursor, db)
                return result
            }
        }
    }

    /// Fields with an unsent local edit whose stamp differs from the incoming one: both sides wrote
    /// them. The merge keeps the later write; this only says which, for the record.
    private static func conflict(between local: SyncRecord, and incoming: SyncRecord, _ db: Database) throws -> RecordConflict? {
        guard !local.isDeleted else { return nil }
        let unsent = Set(try Outbox.mutations(of: local.entity, local.id, db).filter { $0.op == .upsert }.flatMap(\.fields.keys))
        guard !unsent.isEmpty else { return nil }
        if incoming.isDeleted {
            return RecordConflict(entity: local.entity, id: local.id, keptLocal: [], keptRemote: [], deletedElsewhere: true)
        }
        var keptLocal: [String] = []
        var keptRemote: [String] = []
        for field in unsent.sorted() {
            guard let mine = local.stamps[field], let theirs = incoming.stamps[field], mine != theirs else { continue }
            if mine > theirs { keptLocal.append(field) } else { keptRemote.append(field) }
        }
        if keptLocal.isEmpty && keptRemote.isEmpty { return nil }
        return RecordConflict(entity: local.entity, id: local.id, keptLocal: keptLocal, keptRemote: keptRemote, deletedElsewhere: false)
    }

    func markSynced() throws {
        let at = now()
        try storageErrors { try writer.write { db in try SyncState.saveLastSync(at, db) } }
    }
}
