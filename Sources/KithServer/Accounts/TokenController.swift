import Foundation
import Hummingbird
import KithCore

/// `/v1/tokens`: personal access tokens for scripts and the Monica-compatible API.
struct TokenController {
    let accounts: AccountService

    func addRoutes(to router: Router<AppRequestContext>) {
        router.group().add(middleware: BearerAuthMiddleware(accounts: accounts))
            .on(KithAPI.Tokens.create, use: create)
            .on(KithAPI.Tokens.list, use: list)
            .on(KithAPI.Tokens.revoke, use: revoke)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(CreateTokenRequest.self, context: context)
        let token = try await accounts.createPersonalToken(context.requireUser(), name: body.name)
        return try JSONResponse.make(token, status: .created)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        try JSONResponse.make(PersonalTokenList(tokens: try await accounts.personalTokens(context.requireUser())))
    }

    @Sendable func revoke(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        try await accounts.revokePersonalToken(context.requireUser(), id: id)
        return Response(status: .noContent)
    }
}
