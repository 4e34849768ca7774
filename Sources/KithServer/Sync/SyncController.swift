import Foundation
import Hummingbird
import KithCore

/// `/v1/sync/push` and `/v1/sync/pull` (docs/sync.md). Who may write what is decided in `SyncRules`.
struct SyncController {
    let repository: SyncRepository
    let rules: SyncRules
    let accounts: AccountService
    let writer: SyncWriter

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
        let results = try await writer.write(body.mutations, userID: userID, memberships: memberships)
        // Informational: where the server stands after this push. Pulling from it would skip other
        // devices' earlier changes, so KithKit keeps its own pull cursor.
        let current = try await repository.currentSequenceValue()
        let cursor = SyncCursor(positions: Dictionary(uniqueKeysWithValues: memberships.map { ($0.scope, current) }))
        return try JSONResponse.make(PushResponse(results: results, cursor: cursor.text))
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

