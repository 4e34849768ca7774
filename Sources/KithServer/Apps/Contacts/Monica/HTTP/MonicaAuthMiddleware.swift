import HTTPTypes
import Hummingbird

/// Who is calling `/api`: `Authorization: Bearer <token>` (a personal access token, or an app's
/// access token), or else the web app's session cookie, for the Contacts pages, which are a
/// client of this API like any other (docs/decisions.md 29). A cookie request that writes must
/// echo the CSRF cookie in `X-CSRF-Token` (`PageSessionCredential`).
/// No valid credentials: Laravel's 401 `{"message":"Unauthenticated."}`, whatever the Accept header.
struct MonicaAuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let accounts: AccountService

    static let csrfHeader = PageSessionCredential.csrfHeader

    /// A cookie request that writes without the CSRF token: 403, code 42 ("Not authorized") in
    /// Monica's envelope, so the page can tell it from an expired session (401).
    static let csrfRefused = MonicaError(
        .forbidden, code: 42, message: "This request did not come from a Kith page. Reload the page and try again.")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        do {
            if let token = BearerAuthMiddleware.bearerToken(request) {
                context.user = try await accounts.authenticate(token: token)
            } else if let session = PageSessionCredential.sessionToken(request) {
                context.user = try await accounts.authenticate(token: session, allowing: [.web])
                guard PageSessionCredential.allows(request) else { return Self.csrfRefused.response }
                context.isWebSessionRequest = true
            } else {
                return MonicaError.unauthenticated.response
            }
        } catch is AppError {
            return MonicaError.unauthenticated.response
        }
        return try await next(request, context)
    }
}
