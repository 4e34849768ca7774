import Foundation
import Hummingbird
import KithCore

/// `/v1/sync/push` and `/v1/sync/pull` (SYNC.md). Who may write what is decided in `SyncRules`.
struct SyncController {
    let repository: SyncRepository
    let rules: SyncRules
    let accounts: AccountService
    let clock: Clock
    let notifier: any ChangeNotifier

    static let maxMutations = 500
    static let defaultPullLimit = 500
    static let maxPullLimit = 1000

    func addRoutes(to router: Router<AppRequestContext>) {
        router.group("v1/sync").add(middleware: BearerAuthMiddleware(accounts: accounts))
            .post("push", use: push)
            .get("pull", use: pull)
    }

    @Sendable func push(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let user = try context.requireUser()
        let body = try await request.decodeJSON(PushRequest.self, context: context)
        guard body.mutations.count <= Self.maxMutations else {
            throw AppError(
                .contentTooLarge, .payloadTooLarge,
                "A push carries at most \(Self.maxMutations) mutations; this one has \(body.mutations.count). Send it in batches.")
        }
        let userID = user.id.uuidString.lowercased()
        let memberships = try await rules.memberships(userID: userID)
        var results: [MutationResult] = []
        var changes: [ScopeChange] = []
        do {
            for mutation in body.mutations {
                let (result, change) = try await apply(mutation, userID: userID, memberships: memberships)
                results.append(result)
                if let change { changes.append(change) }
            }
        } catch {
            // The mutations before the failure are committed: their nudges still go out.
            await notifier.committed(ScopeChange.latestPerScope(changes))
            throw error
        }
        await notifier.committed(ScopeChange.latestPerScope(changes))
        // Informational: where the server stands after this push. Pulling from it would skip other
        // devices' earlier changes, so KithKit keeps its own pull cursor.
        let current = try await repository.currentSequenceValue()
        let cursor = SyncCursor(positions: Dictionary(uniqueKeysWithValues: memberships.map { ($0.scope, current) }))
        return try JSONResponse.make(PushResponse(results: results, cursor: cursor.text))
    }

    /// Applies one mutation; the change it committed, if it changed the record, comes back too.
    private func apply(_ mutation: Mutation, userID: String, memberships: [ScopeMembership]) async throws
        -> (MutationResult, ScopeChange?)
    {
        let now = clock.nowMillis
        let declaration: EntityDeclaration
        switch rules.check(mutation, memberships: memberships, now: now) {
        case .failure(let refusal):
            let result = MutationResult(
                mutationId: mutation.mutationId, status: .rejected, code: refusal.code, message: refusal.message)
            return (result, nil)
        case .success(let found):
            declaration = found
        }
        let outcome = try await repository.apply(
            mutation, userID: userID, now: now, rules: rules.catalog.rules[mutation.entity] ?? []
        ) { isCreation in
            declaration.problems(in: mutation.fields, isCreation: isCreation).first
        }
        switch outcome {
        case .applied(let seq):
            let change = seq.map { ScopeChange(scope: mutation.scope, seq: $0) }
            return (MutationResult(mutationId: mutation.mutationId, status: .applied), change)
        case .duplicate:
            return (MutationResult(mutationId: mutation.mutationId, status: .duplicate), nil)
        case .rejected(let code, let message, let current):
            let result = MutationResult(
                mutationId: mutation.mutationId, status: .rejected, code: code, message: message, record: current)
            return (result, nil)
        }
    }

    @Sendable func pull(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let query = request.uri.queryParameters
        var cursor = SyncCursor()
        if let text = query.get("cursor"), !text.isEmpty {
            guard let parsed = SyncCursor(text: text) else {
                throw AppError(.badRequest, .badRequest, "The cursor is not one this server gave out.", field: "cursor")
            }
            cursor = parsed
        }
        var limit = Self.defaultPullLimit
        if let text = query.get("limit") {
            guard let value = Int(text), (1...Self.maxPullLimit).contains(value) else {
                throw AppError(.badRequest, .badRequest, "limit must be a number from 1 to \(Self.maxPullLimit).", field: "limit")
            }
            limit = value
        }
        let scopes = try await rules.readableScopes(userID: user.id.uuidString.lowercased())
        var changes = try await repository.changes(after: cursor.positions(for: scopes), limit: limit + 1)
        let hasMore = changes.count > limit
        if hasMore { changes.removeLast() }
        let next = cursor.advanced(for: scopes, through: changes.last?.seq)
        return try JSONResponse.make(PullResponse(changes: changes, cursor: next.text, hasMore: hasMore))
    }
}

