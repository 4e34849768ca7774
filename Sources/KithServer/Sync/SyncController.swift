import Foundation
import Hummingbird
import KithCore

/// `/v1/sync/push` and `/v1/sync/pull` (docs/sync.md): reads the request, hands it to `SyncWriter`,
/// writes the answer. Every decision is the writer's.
struct SyncController {
    let accounts: AccountService
    let writer: SyncWriter

    func addRoutes(to router: Router<AppRequestContext>) {
        router.group().add(middleware: BearerAuthMiddleware(accounts: accounts))
            .on(KithAPI.Sync.push, use: push)
            .on(KithAPI.Sync.pull, use: pull)
    }

    @Sendable func push(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let user = try context.requireUser()
        let body = try await request.decodeJSON(PushRequest.self, context: context)
        guard body.mutations.count <= SyncLimits.mutationsPerPush else {
            throw AppError(
                .contentTooLarge, .payloadTooLarge,
                "A push carries at most \(SyncLimits.mutationsPerPush) mutations; this one has \(body.mutations.count). Send it in batches."
            )
        }
        let memberships = try await writer.rules.memberships(of: user)
        return try JSONResponse.make(
            try await writer.push(body.mutations, userID: user.id.lowercased, memberships: memberships))
    }

    @Sendable func pull(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let query = request.uri.formQuery
        var cursor = SyncCursor()
        if let text = query.get("cursor"), !text.isEmpty {
            guard let parsed = SyncCursor(text: text) else {
                throw AppError(.badRequest, .badRequest, "The cursor is not one this server gave out.", field: "cursor")
            }
            cursor = parsed
        }
        var limit = SyncLimits.defaultPullPage
        if let text = query.get("limit") {
            guard let value = Int(text), (1...SyncLimits.largestPullPage).contains(value) else {
                throw AppError(
                    .badRequest, .badRequest, "limit must be a number from 1 to \(SyncLimits.largestPullPage).",
                    field: "limit")
            }
            limit = value
        }
        let memberships = try await writer.rules.memberships(of: user)
        return JSONResponse.make(
            bytes: try await writer.pull(
                userID: user.id.lowercased, memberships: memberships, after: cursor, limit: limit
            ).json)
    }
}
