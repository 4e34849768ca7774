import HTTPTypes
import Hummingbird

/// Who is calling `/api`: `Authorization: Bearer <token>` (a personal access token, or an app's
/// access token), or else the web app's session cookie, for the Contacts pages, which are a
/// client of this API like any other (docs/decisions.md 29). A cookie request that writes must
/// echo the CSRF cookie in `X-CSRF-Token`: the cookie alone is sent by any page of the same site.
/// No valid credentials: Laravel's 401 `{"message":"Unauthenticated."}`, whatever the Accept header.
struct MonicaAuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let accounts: AccountService

    static let csrfHeader = HTTPField.Name.csrfToken

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
            } else if let session = request.cookies[WebSessionMiddleware.sessionCookie]?.value, !session.isEmpty {
                context.user = try await accounts.authenticate(token: session, allowing: [.web])
                guard Self.isSafe(request.method) || Self.echoesCSRFCookie(request) else {
                    return Self.csrfRefused.response
                }
                context.isWebSessionRequest = true
            } else {
                return MonicaError.unauthenticated.response
            }
        } catch is AppError {
            return MonicaError.unauthenticated.response
        }
        return try await next(request, context)
    }

    static func isSafe(_ method: HTTPRequest.Method) -> Bool { method == .get || method == .head }

    /// Double submit: only a page of this origin can read the token (the cookie is HttpOnly; the
    /// page carries it), so a matching header proves the request came from one.
    static func echoesCSRFCookie(_ request: Request) -> Bool {
        let sent = request.headers[values: csrfHeader]
        guard let cookie = request.cookies[WebSessionMiddleware.csrfCookie]?.value, !cookie.isEmpty, sent.count == 1
        else { return false }
        return Tokens.constantTimeEquals(cookie, sent[0])
    }
}
