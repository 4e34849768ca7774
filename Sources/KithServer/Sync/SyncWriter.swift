import Foundation
import KithCore

/// Sync's one decision-maker, for push, pull and the web pages (a device of their own): who may
/// write what (`SyncRules`), each entity's field checks and rules across records, the merge, the
/// cascades of a deletion, then live nudges for what was committed. `SyncRepository` only loads
/// and stores, inside the transaction `inScope` opens, so every check sees what it guards.
struct SyncWriter: Sendable {
    let repository: SyncRepository
    let rules: SyncRules
    let clock: Clock
    let notifier: any ChangeNotifier
    /// Called for each record stored, inside its transaction (see `RecordWriteHook`).
    var hooks: [any RecordWriteHook] = []

    /// What a push answers: each mutation's result, and where each of the user's scopes stood as
    /// the push ended. `memberships` are the user's scopes when the caller already has them.
    func push(_ mutations: [Mutation], userID: String, memberships known: [ScopeMembership]? = nil) async throws
        -> PushResponse
    {
        let memberships = try await memberships(known, of: userID)
        let (results, changes) = try await writeAndAnnounce(mutations, userID: userID, memberships: memberships)
        // Informational: pulling from it would skip other devices' earlier changes, so KithKit
        // keeps its own pull cursor. A scope this push wrote stood at its last write; only the
        // others are read.
        var positions = Dictionary(uniqueKeysWithValues: changes.map { ($0.scope, $0.seq) })
        let unwritten = memberships.map(\.scope).filter { positions[$0] == nil }
        if !unwritten.isEmpty {
            positions.merge(try await repository.currentSequenceValues(of: unwritten)) { written, _ in written }
        }
        return PushResponse(
            results: results, cursor: SyncCursor(positions: positions).text, serverTime: clock.nowMillis)
    }

    /// A page of the changes `userID` may read after `cursor` (`memberships`: as for `push`).
    func pull(userID: String, memberships: [ScopeMembership]? = nil, after cursor: SyncCursor, limit: Int)
        async throws -> PullPage
    {
        let scopes = try await self.memberships(memberships, of: userID).map(\.scope)
        var changes = try await repository.changes(after: cursor.positions(for: scopes), limit: limit + 1)
        let hasMore = changes.count > limit
        if hasMore { changes.removeLast() }
        let next = cursor.advanced(for: scopes, through: changes.map { ($0.scope, $0.seq) })
        // Scopes the device followed that the user left: it drops their records (docs/sync.md).
        let gone = cursor.positions.keys.filter { !scopes.contains($0) }.sorted()
        return PullPage(changes: changes, cursor: next.text, hasMore: hasMore, gone: gone.isEmpty ? nil : gone)
    }

    /// Writes the server's own bookkeeping records (`WriteRule.server`: a family and its members,
    /// mirrored from the membership table) inside the transaction the caller holds, so they commit
    /// with what they mirror. Field limits apply as to any write; who may write does not (the
    /// caller decided). The change is returned for `announce` once the transaction commits.
    func writeAsServer(_ mutation: Mutation, in store: SyncTransaction) async throws -> ScopeChange? {
        guard let declaration = rules.catalog[mutation.entity], mutation.scope == store.scope else {
            throw SyncStorageError("the server wrote \(mutation.entity) outside its catalog or scope")
        }
        let stored = try await store.record(mutation.id)
        if mutation.op == .upsert,
            let problem = declaration.problems(in: mutation.fields, isCreation: stored == nil).first
        {
            throw AppError.validation(problem)
        }
        var record = stored ?? SyncRecord(entity: mutation.entity, id: mutation.id, scope: mutation.scope)
        guard case .changed = record.merge(mutation) else { return nil }
        let seq = try await store.store([record]).upperBound
        try await hooks.run(for: record, in: store)
        return ScopeChange(scope: mutation.scope, seq: seq)
    }

    /// Nudges live sockets about changes committed outside `write` (`writeAsServer`'s).
    func announce(_ changes: [ScopeChange]) async {
        await notifier.committed(ScopeChange.latestPerScope(changes))
    }

    /// Consecutive mutations of one scope share a transaction, up to this many: a push of 10,000
    /// is 40 commits, not 10,000 (a commit on PostgreSQL waits for its log to reach the disk), and
    /// the writer is still let go often enough for other requests on SQLite.
    static let mutationsPerTransaction = 256

    /// One result per mutation, in order. Consecutive mutations of one scope commit together
    /// (`mutationsPerTransaction`); if storage fails part way, the batches before stay committed
    /// (and are nudged) and the error is thrown; the device sends the rest again (mutation ids make
    /// that safe). `memberships` are the user's scopes when the caller already has them.
    func write(_ mutations: [Mutation], userID: String, memberships known: [ScopeMembership]? = nil) async throws
        -> [MutationResult]
    {
        try await writeAndAnnounce(mutations, userID: userID, memberships: try await memberships(known, of: userID))
            .results
    }

    /// The user's scopes: `known` when the caller has them (a session's lookup brings them), else read.
    private func memberships(_ known: [ScopeMembership]?, of userID: String) async throws -> [ScopeMembership] {
        if let known { return known }
        return try await rules.memberships(userID: userID)
    }

    /// `write`'s results, with the latest change of each scope it committed (one per scope).
    private func writeAndAnnounce(_ mutations: [Mutation], userID: String, memberships: [ScopeMembership])
        async throws -> (results: [MutationResult], changes: [ScopeChange])
    {
        var results: [MutationResult] = []
        var changes: [ScopeChange] = []
        do {
            var start = 0
            while start < mutations.count {
                var end = start + 1
                while end < mutations.count, end - start < Self.mutationsPerTransaction,
                    mutations[end].scope == mutations[start].scope
                {
                    end += 1
                }
                let (batchResults, change) = try await apply(
                    mutations[start..<end], userID: userID, memberships: memberships)
                results += batchResults
                if let change { changes.append(change) }
                start = end
            }
        } catch {
            await notifier.committed(ScopeChange.latestPerScope(changes))
            throw error
        }
        let latest = ScopeChange.latestPerScope(changes)
        await notifier.committed(latest)
        return (results, latest)
    }

    /// A mutation refused before its transaction: the result it gets.
    private struct MutationRefusal: Error {
        let result: MutationResult
    }

    /// Applies mutations of one scope in one transaction (`PushBatch`): each one's result, and the
    /// batch's latest change. Who may write what is judged before the transaction opens: a refused
    /// mutation touches nothing.
    private func apply(_ batch: ArraySlice<Mutation>, userID: String, memberships: [ScopeMembership]) async throws
        -> ([MutationResult], ScopeChange?)
    {
        /// Each mutation with its entity's declaration, or the refusal it gets instead.
        let judged: [(mutation: Mutation, verdict: Result<EntityDeclaration, MutationRefusal>)] = batch.map {
            mutation in
            let verdict = rules.check(mutation, memberships: memberships, now: clock.nowMillis).mapError { refusal in
                MutationRefusal(result: Self.rejected(mutation, code: refusal.code, message: refusal.message))
            }
            return (mutation, verdict)
        }
        let allowed = judged.compactMap { item -> Mutation? in
            guard case .success = item.verdict else { return nil }
            return item.mutation
        }
        if allowed.isEmpty {
            return (
                judged.compactMap { item in
                    guard case .failure(let refusal) = item.verdict else { return nil }
                    return refusal.result
                }, nil
            )
        }
        let scope = batch[batch.startIndex].scope
        return try await repository.inScope(scope) { [hooks, clock] store in
            var open = try await PushBatch.open(
                for: allowed, userID: userID, now: clock.nowMillis, hooks: hooks, in: store)
            var results: [MutationResult] = []
            for (mutation, verdict) in judged {
                switch verdict {
                case .failure(let refusal): results.append(refusal.result)
                case .success(let declaration): results.append(try await apply(mutation, declaration, in: &open))
                }
            }
            try await open.flush()
            return (results, open.lastSeq.map { ScopeChange(scope: scope, seq: $0) })
        }
    }

    /// One mutation of a batch: duplicates, ownership, field checks and rules across records, then
    /// the merge, the write and a deletion's cascade (stored when the batch flushes).
    func apply(_ mutation: Mutation, _ declaration: EntityDeclaration, in batch: inout PushBatch)
        async throws -> MutationResult
    {
        let recordRules = rules.catalog.rules[mutation.entity] ?? []
        if batch.wasApplied(mutation.mutationId) {
            return MutationResult(mutationId: mutation.mutationId, status: .duplicate)
        }
        let stored = batch.record(mutation.id)
        var record = SyncRecord(entity: mutation.entity, id: mutation.id, scope: mutation.scope)
        if let stored {
            // A record is its scope and id (the batch reads this scope's only); within a scope an id
            // is one record, of one entity.
            guard stored.entity == mutation.entity else {
                return Self.rejected(
                    mutation, code: ErrorCode.forbidden.rawValue, message: "This id is another kind of record's.",
                    field: "id")
            }
            record = stored
        }
        if mutation.op == .upsert,
            let problem = declaration.problems(in: mutation.fields, isCreation: stored == nil).first
        {
            return Self.rejected(mutation, problem, current: try await batch.change(of: mutation.id))
        }
        if !recordRules.isEmpty {
            let related = try await batch.liveRecords(Set(recordRules.flatMap(\.reads)))
            let context = RuleContext(now: clock.now(), actor: batch.userID)
            for rule in recordRules {
                if let problem = rule.problem(with: mutation, current: stored, records: related, context: context) {
                    return Self.rejected(mutation, problem, current: try await batch.change(of: mutation.id))
                }
            }
        }
        switch record.merge(mutation) {
        case .ignoredDeleted:
            return Self.rejected(
                mutation, code: ErrorCode.deleted.rawValue, message: "This record was deleted.",
                current: try await batch.change(of: mutation.id))
        case .superseded:
            batch.remember(mutation)
            return MutationResult(mutationId: mutation.mutationId, status: .applied)
        case .changed:
            batch.write(record)
            batch.remember(mutation)
            if mutation.op == .delete { try await cascade(mutation, recordRules, in: &batch) }
            return MutationResult(mutationId: mutation.mutationId, status: .applied)
        }
    }

    /// Deletes what goes with a deleted record (a year's people), with the deletion's own stamp so
    /// every replica computes the same.
    private func cascade(_ mutation: Mutation, _ recordRules: [any RecordRule], in batch: inout PushBatch) async throws
    {
        for rule in recordRules where !rule.cascadeReads.isEmpty {
            let related = try await batch.liveRecords(Set(rule.cascadeReads))
            for var dependent in rule.cascade(of: mutation, records: related) {
                dependent.merge(
                    Mutation(
                        mutationId: mutation.mutationId, entity: dependent.entity, id: dependent.id,
                        scope: dependent.scope, op: .delete, hlc: mutation.hlc))
                batch.write(dependent)
            }
        }
    }

    private static func rejected(
        _ mutation: Mutation, code: String, message: String, field: String? = nil, current: ChangeDTO? = nil
    ) -> MutationResult {
        MutationResult(
            mutationId: mutation.mutationId, status: .rejected, code: code, message: message, field: field,
            record: current)
    }

    private static func rejected(_ mutation: Mutation, _ problem: APIErrorDetail, current: ChangeDTO?) -> MutationResult
    {
        rejected(mutation, code: problem.code, message: problem.message, field: problem.field, current: current)
    }
}
