import Foundation
import KithCore

/// How the server applies one of an app's operations (KithCore, docs/sync.md "Operations") for a
/// person writing from a page or any surface that is not a device: as one more device of theirs,
/// stamped by the process's `WebClock`, in one transaction, all or nothing.
struct OperationWriter: Sendable {
    let writer: SyncWriter
    let stamps: WebClock
    let ids: IdentifierSource

    /// Applies `operation` for `userID`: the records it reads are read, it decides its writes, and
    /// each write is judged as a push's mutation is (who may write, field limits, rules across
    /// records, the merge, cascades) in the scope's one transaction. The first refusal refuses the
    /// whole operation and nothing is written.
    @discardableResult
    func apply<Output: Sendable>(_ operation: RecordOperation<Output>, userID: String) async throws -> Output {
        let (output, _) = try await run(operation, userID: userID, key: nil) { _ in "" }
        guard let output else { throw SyncStorageError("an operation without a write key was answered from one") }
        return output
    }

    /// Applies `operation` as `user` (see `apply(_:userID:)`).
    @discardableResult
    func apply<Output: Sendable>(_ operation: RecordOperation<Output>, for user: AuthenticatedUser) async throws
        -> Output
    {
        try await apply(operation, userID: user.id.lowercased)
    }

    /// Applies `operation` under the writer's key (docs/sync.md, "Write keys"): what `answer` makes
    /// of the output (a page's redirect) is stored with the key in the same transaction, and the
    /// same key again returns that stored answer and writes nothing. `request` says what was asked
    /// (a form's fields): the same key with another request is refused. Without a key (nil), it is
    /// applied and answered each time.
    func apply<Output: Sendable>(
        _ operation: RecordOperation<Output>, userID: String, key: String?, request: String = "",
        answer: @escaping @Sendable (Output) -> String
    ) async throws -> String {
        try await run(operation, userID: userID, key: key, request: request, answer: answer).answer
    }

    private func run<Output: Sendable>(
        _ operation: RecordOperation<Output>, userID: String, key: String?, request: String = "",
        answer: @escaping @Sendable (Output) -> String
    ) async throws -> (output: Output?, answer: String) {
        let writeKey = try WriteKey(key, userID: userID, request: WriteKey.request(operation.name, request))
        let scope = operation.scope.name(userScope: "user:" + userID)
        let memberships = try await writer.rules.memberships(userID: userID)
        let (output, answered, change) = try await writer.repository.inScope(scope) { [writer, stamps, ids] store in
            if let writeKey, let state = try await WriteKeys.state(of: writeKey, in: store.sql) {
                guard case .answered(let stored) = state else { throw Self.inFlight }
                return (nil as Output?, stored, nil as ScopeChange?)
            }
            let now = writer.clock.now()
            let read = try await Self.read(operation, in: store)
            var draft = operation.draft(found: read, scope: scope, now: now, actor: userID, newID: { ids.uuid() })
            let output: Output
            do throws(APIErrorDetail) {
                output = try operation.plan(&draft)
            } catch {
                throw Self.refusal(error)
            }
            // Stamped after every record the operation read: what a person does to what they saw wins.
            let first = stamps.stamp(after: read)
            let mutations = draft.writes.enumerated().map { index, write in
                Mutation(
                    mutationId: ids.uuid(), entity: write.entity, id: write.id, scope: scope,
                    op: write.change == .delete ? .delete : .upsert, fields: write.fields,
                    hlc: index == 0 ? first : stamps.stamp())
            }
            var batch = try await PushBatch.open(
                for: mutations, userID: userID, now: now.epochMillis, hooks: writer.hooks, in: store)
            for mutation in mutations {
                let declaration: EntityDeclaration
                switch writer.rules.check(mutation, memberships: memberships, now: now.epochMillis) {
                case .failure(let refusal):
                    throw Self.refusal(APIErrorDetail(code: refusal.code, message: refusal.message))
                case .success(let checked): declaration = checked
                }
                let result = try await writer.apply(mutation, declaration, in: &batch)
                if result.status == .rejected {
                    throw Self.refusal(
                        APIErrorDetail(
                            code: result.code ?? ErrorCode.validationFailed.rawValue,
                            message: result.message ?? "The change was refused.", field: result.field))
                }
            }
            try await batch.flush()
            let answered = answer(output)
            if let writeKey {
                try await WriteKeys.record(writeKey, answer: answered, now: now.epochMillis, in: store.sql)
            }
            return (output, answered, batch.lastSeq.map { ScopeChange(scope: scope, seq: $0) })
        }
        if let change { await writer.announce([change]) }
        return (output, answered)
    }

    /// What storage holds of what `operation` reads in the transaction's scope: the entities it
    /// reads whole, and the records it names one by one (`RecordOperation.draft` keeps the live ones).
    private static func read<Output>(_ operation: RecordOperation<Output>, in store: SyncTransaction) async throws
        -> [SyncRecord]
    {
        let named = operation.recordReads(in: store.scope).values.reduce(into: Set<UUID>()) { $0.formUnion($1) }
        let whole = try await store.liveRecords(operation.wholeReads).values.flatMap { $0 }
        return named.isEmpty ? whole : whole + (try await store.records(Array(named)).values.map(\.record))
    }

    /// A refusal as the error a person sees: 404 for what is not there (or not theirs), 403 for
    /// what they may not do, 422 for the rest, with the field at fault.
    static func refusal(_ problem: APIErrorDetail) -> AppError {
        switch problem.code {
        case ErrorCode.notFound.rawValue: AppError(.notFound, problem)
        case ErrorCode.forbidden.rawValue: AppError(.forbidden, problem)
        case ErrorCode.samePerson.rawValue: AppError(.conflict, problem)
        default: AppError.validation(problem)
        }
    }

    static let inFlight = AppError(
        .conflict, .validationFailed, "This change is still being made; reload the page in a moment.", field: "key")
}

extension RecordWrite {
    /// The fields an upsert sets (none for a deletion).
    var fields: [String: JSONTree] {
        if case .upsert(let fields) = change { return fields }
        return [:]
    }
}
