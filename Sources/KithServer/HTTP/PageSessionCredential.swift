import HTTPTypes
import Hummingbird

/// The web session cookie as the credential of an API route that the pages' own scripts call
/// (Monica's `/api` for the Contacts pages, `/v1/push` for the notification switch). A request
/// that only reads may rely on the cookie; one that writes must also echo the CSRF cookie in
/// `X-CSRF-Token`, because any page of the same site gets the cookie sent along, while only a page
/// of this origin can read the token (the page carries it; the cookie is HttpOnly).
enum PageSessionCredential {
    static let csrfHeader = HTTPField.Name.csrfToken

    /// The session cookie's token, when the request carries one.
    static func sessionToken(_ request: Request) -> String? {
        guard let token = request.cookies[WebSessionMiddleware.sessionCookie]?.value, !token.isEmpty else { return nil }
        return token
    }

    static func isSafe(_ method: HTTPRequest.Method) -> Bool { method == .get || method == .head }

    /// Double submit: the header holds exactly the CSRF cookie's value.
    static func echoesCSRFCookie(_ request: Request) -> Bool {
        let sent = request.headers[values: csrfHeader]
        guard let cookie = request.cookies[WebSessionMiddleware.csrfCookie]?.value, !cookie.isEmpty, sent.count == 1
        else { return false }
        return Tokens.constantTimeEquals(cookie, sent[0])
    }

    /// Whether a cookie request may go on: it reads, or it proves it came from a Kith page.
    static func allows(_ request: Request) -> Bool { isSafe(request.method) || echoesCSRFCookie(request) }
}

/// For `/v1` routes a page's script calls as well as an app: `Authorization: Bearer` as on every
/// `/v1` route, or else the web session cookie, with the CSRF header on every write
/// (`PageSessionCredential`). A write with the cookie but without the header is refused 403.
struct BearerOrSessionAuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let accounts: AccountService

    static let csrfRefused = AppError(
        .forbidden, .csrfFailed, "This request did not come from a Kith page. Reload the page and try again.")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        if let token = BearerAuthMiddleware.bearerToken(request) {
            context.user = try await accounts.authenticate(token: token)
        } else if let session = PageSessionCredential.sessionToken(request) {
            context.user = try await accounts.authenticate(token: session, allowing: [.web])
            guard PageSessionCredential.allows(request) else { throw Self.csrfRefused }
            context.isWebSessionRequest = true
        } else {
            throw AppError.unauthorized
        }
        return try await next(request, context)
    }
}
