import Hummingbird

/// For `/v1` routes that only read and that the web pages call too (the food search): a bearer
/// token as on every `/v1` route, or else the web session cookie. The cookie is taken on GET and
/// HEAD only: with SameSite=Lax another site's page cannot make the browser send it on a request
/// whose answer it could read, and a read changes nothing, so no CSRF token is needed. Any other
/// method needs the bearer token.
struct ReadAuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let accounts: AccountService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        if let token = BearerAuthMiddleware.bearerToken(request) {
            context.user = try await accounts.authenticate(token: token)
        } else if PageSessionCredential.isSafe(request.method),
            let session = PageSessionCredential.sessionToken(request)
        {
            context.user = try await accounts.authenticate(token: session, allowing: [.web])
            context.isWebSessionRequest = true
        } else {
            throw AppError.unauthorized
        }
        return try await next(request, context)
    }
}
