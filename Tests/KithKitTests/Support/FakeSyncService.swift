import Foundation
import KithCore
import KithKit

/// An in-memory sync server with the real merge rule, for engine tests that script failures.
actor FakeSyncService: SyncService {
    private(set) var records: [UUID: SyncRecord] = [:]
    private var sequence: [UUID: Int64] = [:]
    private var counter: Int64 = 0
    private var applied: Set<UUID> = []
    /// Sizes of the pushes received, in order.
    private(set) var pushSizes: [Int] = []
    /// Every pushed mutation's id, in the order received (a re-sent one again).
    private(set) var pushedIds: [UUID] = []
    /// When set, pushes after this many fail as offline.
    private var pushesAnswered: Int?
    /// When set, each push is answered for its first this many mutations only.
    private var answeredPerPush: Int?
    /// When set, every call fails with it (server down, server error).
    var failure: KithError?
    /// The cursor of every pull, in order.
    private(set) var pullCursors: [String?] = []
    /// When set, pulls after this many fail as offline.
    private var pullsAnswered: Int?
    /// Upserts whose title is this are refused, as a server rule would.
    var refusedTitle = "refuse me"
    var userID: UUID?
    /// Scopes the user no longer reads (a family left): pulls say so and serve nothing of them,
    /// pushes to them are refused.
    private var goneScopes: Set<String> = []

    init(userID: UUID?) {
        self.userID = userID
    }

    func fail(with error: KithError?) { failure = error }

    func failPulls(after answered: Int?) {
        pullsAnswered = answered
        pullCursors = []
    }

    func failPushes(after answered: Int?) {
        pushesAnswered = answered
        pushSizes = []
    }

    func answerOnly(first count: Int?) { answeredPerPush = count }

    func revokeAccess(to scope: String) { goneScopes.insert(scope) }

    /// A record the server writes itself (a family's member records), pulled like any change.
    func serverWrite(_ record: SyncRecord) {
        counter += 1
        sequence[record.id] = counter
        records[record.id] = record
    }

    func push(_ request: PushRequest) async throws -> PushResponse {
        if let failure { throw failure }
        pushSizes.append(request.mutations.count)
        if let pushesAnswered, pushSizes.count > pushesAnswered { throw KithError.offline }
        pushedIds += request.mutations.map(\.mutationId)
        var results: [MutationResult] = []
        for mutation in request.mutations.prefix(answeredPerPush ?? request.mutations.count) {
            if applied.contains(mutation.mutationId) {
                results.append(MutationResult(mutationId: mutation.mutationId, status: .duplicate))
                continue
            }
            if goneScopes.contains(mutation.scope) {
                results.append(MutationResult(mutationId: mutation.mutationId, status: .rejected, code: "forbidden", message: "Not yours."))
                continue
            }
            if mutation.fields["title"] == .string(refusedTitle) {
                results.append(MutationResult(mutationId: mutation.mutationId, status: .rejected, code: "validation_failed", message: "Refused."))
                continue
            }
            var record = records[mutation.id] ?? SyncRecord(entity: mutation.entity, id: mutation.id, scope: mutation.scope)
            if record.merge(mutation) == .changed {
                counter += 1
                sequence[mutation.id] = counter
                records[mutation.id] = record
            }
            applied.insert(mutation.mutationId)
            results.append(MutationResult(mutationId: mutation.mutationId, status: .applied))
        }
        return PushResponse(results: results, cursor: String(counter))
    }

    func pull(cursor: String?, limit: Int) async throws -> PullResponse {
        if let failure { throw failure }
        pullCursors.append(cursor)
        if let pullsAnswered, pullCursors.count > pullsAnswered { throw KithError.offline }
        let after = cursor.flatMap { Int64($0) } ?? 0
        let newer = sequence.filter { $0.value > after && !goneScopes.contains(records[$0.key]!.scope) }
            .sorted { $0.value < $1.value }
        let page = newer.prefix(limit)
        let changes = page.map { ChangeDTO(record: records[$0.key]!, seq: $0.value) }
        return PullResponse(
            changes: changes, cursor: String(page.last?.value ?? after), hasMore: newer.count > limit,
            gone: goneScopes.isEmpty ? nil : goneScopes.sorted())
    }

    func liveEndpoint() async throws -> (url: URL, token: String) {
        throw KithError.offline
    }

    func signedInUserID() async throws -> UUID? { userID }

    var liveRecordCount: Int { records.values.filter { !$0.isDeleted }.count }
}

/// Another account's connection to the same fake server, so the members of a family share its records.
struct FakeSyncSession: SyncService {
    let server: FakeSyncService
    let userID: UUID

    func push(_ request: PushRequest) async throws -> PushResponse { try await server.push(request) }

    func pull(cursor: String?, limit: Int) async throws -> PullResponse { try await server.pull(cursor: cursor, limit: limit) }

    func liveEndpoint() async throws -> (url: URL, token: String) { try await server.liveEndpoint() }

    func signedInUserID() async throws -> UUID? { userID }
}
