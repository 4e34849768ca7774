import Foundation
import Hummingbird

/// For every page: finds the signed-in user from the session cookie and makes sure the browser
/// holds a CSRF token (double-submit cookie) that every form echoes back.
struct WebSessionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let accounts: AccountService
    let renderer: WebRenderer
    let secureCookies: Bool

    static let sessionCookie = "kith_session"
    static let csrfCookie = "kith_csrf"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var (context, staleSession) = try await identify(request, context)
        let existingCSRF = request.cookies[Self.csrfCookie]?.value
        let csrf = context.csrfToken ?? Tokens.generate(.web)
        context.csrfToken = csrf
        var response: Response
        do {
            response = try await next(request, context)
            // A page that needs a signed-in person: sign in, then come back here.
            if SignInReturn.isSignInRedirect(response), request.method == .get || request.method == .head {
                response.headers[.location] = SignInReturn.address(
                    returningTo: request.uri.description, ended: staleSession)
            }
        } catch let error as AppError where error.status == .unauthorized && context.user == nil {
            // A form sent after its session ended: say so, with the way back to the page it came from.
            response = try renderer.sessionEndedPage(
                signIn: SignInReturn.address(returningTo: SignInReturn.referringPath(request), ended: true),
                context: context)
        } catch let error as AppError {
            // A person in a browser gets a page, not the API's JSON.
            response = try renderer.errorPage(error, context: context)
        }
        if existingCSRF != csrf {
            response.setCookie(cookie(Self.csrfCookie, csrf, maxAge: nil))
        }
        if staleSession, response.headers[values: .setCookie].allSatisfy({ !$0.hasPrefix(Self.sessionCookie + "=") }) {
            response.setCookie(cookie(Self.sessionCookie, "", maxAge: 0))
        }
        return response
    }

    /// `context` with the user the session cookie names, if it is a live web session, and the
    /// browser's CSRF token, if it has a usable one. `staleSession`: a cookie named a session
    /// that is gone. Used here and for error pages at addresses no route has, which no route's
    /// middleware sees, so a signed-in person keeps their header there too.
    func identify(_ request: Request, _ context: Context) async throws -> (context: Context, staleSession: Bool) {
        var context = context
        var staleSession = false
        if let token = request.cookies[Self.sessionCookie]?.value, !token.isEmpty {
            do {
                context.user = try await accounts.authenticate(token: token, allowing: [.web])
            } catch is AppError {
                staleSession = true
            }
        }
        if let csrf = request.cookies[Self.csrfCookie]?.value, csrf.count >= 32 { context.csrfToken = csrf }
        return (context, staleSession)
    }

    func cookie(_ name: String, _ value: String, maxAge: Int?) -> Cookie {
        Cookie(
            name: name, value: value, maxAge: maxAge, path: "/", secure: secureCookies, httpOnly: true, sameSite: .lax)
    }
}
