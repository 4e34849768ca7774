import Hummingbird

/// Requires `Authorization: Bearer <token>` (access token or personal access token) and puts the
/// user into the context.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let accounts: AccountService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let token = Self.bearerToken(request) else { throw AppError.unauthorized }
        var context = context
        context.user = try await accounts.authenticate(token: token)
        return try await next(request, context)
    }

    static func bearerToken(_ request: Request) -> String? {
        request.headers[.authorization].flatMap(bearerToken(header:))
    }

    /// The token of an `Authorization: Bearer <token>` header; nil when the header has another form.
    static func bearerToken(header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
