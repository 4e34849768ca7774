import Foundation
import Hummingbird
import KithCore

/// The account pages: sign up, sign in, sign out, forgot and reset password, and the account page
/// (password, API tokens, deletion). Same `AccountService` as the JSON API.
struct AccountPages {
    let accounts: AccountService
    let renderer: WebRenderer
    let session: WebSessionMiddleware

    func addRoutes(to router: Router<AppRequestContext>) {
        let pages = router.group().add(middleware: session)
        pages.get("signup") { request, context in try render(.signUp, context, values: noticeValues(request)) }
        pages.post("signup", use: signUp)
        pages.get("signin", use: signInPage)
        pages.post("signin", use: signIn)
        pages.post("signout", use: signOut)
        pages.get("forgot-password") { _, context in try render(.forgotPassword, context) }
        pages.post("forgot-password", use: forgotPassword)
        pages.get("reset-password", use: resetPasswordPage)
        pages.post("reset-password", use: resetPassword)
        pages.get("account", use: accountPage)
        pages.post("account/password", use: changePassword)
        pages.post("account/tokens", use: createToken)
        pages.post("account/tokens/{id}/revoke", use: revokeToken)
        pages.post("account/delete", use: deleteAccount)
    }

    /// Each page: its template and title.
    enum Page {
        case signUp, signIn, forgotPassword, resetPassword, account

        var template: String {
            switch self {
            case .signUp: "signup"
            case .signIn: "signin"
            case .forgotPassword: "forgot-password"
            case .resetPassword: "reset-password"
            case .account: "account"
            }
        }

        var title: String {
            switch self {
            case .signUp: "Create your account"
            case .signIn: "Sign in"
            case .forgotPassword: "Forgot password"
            case .resetPassword: "Choose a new password"
            case .account: "Your account"
            }
        }
    }

    /// A short-lived notice carried across a redirect in the query string (`?notice=…`), chosen
    /// from a fixed list so a link can't put arbitrary text on the page.
    enum Notice: String {
        case signedOut = "signed-out"
        case passwordReset = "password-reset"
        case accountDeleted = "account-deleted"

        var text: String {
            switch self {
            case .signedOut: "You are signed out."
            case .passwordReset: "Your password was changed. Sign in with the new one."
            case .accountDeleted: "Your account and all of its data were deleted."
            }
        }
    }

    private func render(
        _ page: Page, _ context: AppRequestContext, status: HTTPResponse.Status = .ok, values: [String: Any] = [:]
    ) throws -> Response {
        try renderer.page(
            page.template, title: page.title, context: context, status: status, values: values,
            section: page == .account ? .account : .other)
    }

    /// Re-renders a form after `error`: a field's message goes next to that field.
    private func render(_ page: Page, _ context: AppRequestContext, error: AppError, values: [String: Any] = [:])
        throws -> Response
    {
        var values = values
        if let field = error.detail.field {
            values["errors"] = [field: error.detail.message]
        } else {
            values["error"] = error.detail.message
        }
        let status: HTTPResponse.Status = error.status == .tooManyRequests ? .tooManyRequests : .unprocessableContent
        var response = try render(page, context, status: status, values: values)
        if let retryAfter = error.headers[.retryAfter] { response.headers[.retryAfter] = retryAfter }
        return response
    }

    private func noticeValues(_ request: Request) -> [String: Any] {
        guard let key = request.uri.formQuery.get("notice"), let notice = Notice(rawValue: key) else { return [:] }
        return ["notice": notice.text]
    }

    /// Names this browser to the sign-in throttle as one that signed in before (docs/accounts.md).
    /// Kept across sign-outs; a password reset makes it worthless.
    static let deviceCookie = "kith_device"
    static let deviceCookieLifetime = 400 * 24 * 3600

    private func signedIn(_ response: Response, token: String) -> Response {
        var response = response
        response.setCookie(
            session.cookie(
                WebSessionMiddleware.sessionCookie, token, maxAge: Int(accounts.settings.webSessionLifetime)))
        return response
    }

    private func signedOut(_ response: Response) -> Response {
        var response = response
        response.setCookie(session.cookie(WebSessionMiddleware.sessionCookie, "", maxAge: 0))
        return response
    }

    // MARK: Handlers

    @Sendable func signUp(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await startSession(request, context, page: .signUp) {
            try await accounts.signUp(email: $0, password: $1, kind: .web, origin: $2)
        }
    }

    @Sendable func signInPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        if context.user != nil { return .redirect(to: "/", type: .found) }
        return try render(.signIn, context, values: noticeValues(request))
    }

    @Sendable func signIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await startSession(request, context, page: .signIn) {
            try await accounts.signIn(email: $0, password: $1, kind: .web, origin: $2)
        }
    }

    /// Sign-up and sign-in alike: read email and password, start a web session, go to the home page;
    /// on a refusal, show the form again with the error and the email kept.
    private func startSession(
        _ request: Request, _ context: AppRequestContext, page: Page,
        _ start: (String, String, SignInOrigin) async throws -> (UserRecord, IssuedSession)
    ) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        let origin = SignInOrigin(
            address: context.clientAddress, deviceToken: request.cookies[Self.deviceCookie]?.value)
        do {
            let (_, issued) = try await start(form["email"], form["password"], origin)
            var response = signedIn(.redirect(to: "/", type: .found), token: issued.accessToken)
            if let device = issued.deviceToken {
                response.setCookie(session.cookie(Self.deviceCookie, device, maxAge: Self.deviceCookieLifetime))
            }
            return response
        } catch let error as AppError {
            return try render(page, context, error: error, values: ["values": ["email": form["email"]]])
        }
    }

    @Sendable func signOut(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await WebForm.read(request, context: context)
        if let user = context.user { try await accounts.signOut(user) }
        return signedOut(.redirect(to: "/signin?notice=\(Notice.signedOut.rawValue)", type: .found))
    }

    @Sendable func forgotPassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        do {
            try await accounts.requestPasswordReset(email: form["email"])
        } catch let error as AppError {
            return try render(.forgotPassword, context, error: error, values: ["values": ["email": form["email"]]])
        }
        let minutes = Int(accounts.settings.passwordResetLifetime / 60)
        return try render(
            .forgotPassword, context,
            values: [
                "sent": true,
                "notice":
                    "If an account exists for that email, we sent a link to reset the password. It works for \(minutes) minutes.",
            ])
    }

    @Sendable func resetPasswordPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = request.uri.formQuery.get("token") ?? ""
        if let problem = try await accounts.passwordResetProblem(token: token) {
            return try render(
                .resetPassword, context, status: .badRequest, values: ["invalidLink": true, "error": problem.detail.message])
        }
        return try render(.resetPassword, context, values: ["token": token])
    }

    @Sendable func resetPassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        do {
            try await accounts.confirmPasswordReset(token: form["token"], newPassword: form["newPassword"])
        } catch let error as AppError where error.detail.field == "token" {
            return try render(
                .resetPassword, context, status: .badRequest, values: ["invalidLink": true, "error": error.detail.message])
        } catch let error as AppError {
            return try render(.resetPassword, context, error: error, values: ["token": form["token"]])
        }
        return signedOut(.redirect(to: "/signin?notice=\(Notice.passwordReset.rawValue)", type: .found))
    }

    // MARK: Account page

    private func accountValues(_ user: AuthenticatedUser, zone: TimeZone?) async throws -> [String: Any] {
        let tokens = try await accounts.personalTokens(user)
        func time(_ moment: Date) -> [String: String] {
            ["iso": WireCoding.formatTimestamp(moment), "text": WebTime.text(moment, in: zone)]
        }
        return [
            "account": ["email": user.email, "createdAt": time(user.createdAt)],
            "tokens": tokens.map { token -> [String: Any] in
                var row: [String: Any] = [
                    "id": token.id.lowercased, "name": token.name, "createdAt": time(token.createdAt),
                ]
                if let lastUsed = token.lastUsedAt { row["lastUsedAt"] = time(lastUsed) }
                if let expires = token.expiresAt { row["expiresAt"] = time(expires) }
                return row
            },
        ]
    }

    private func renderAccount(
        _ request: Request, _ context: AppRequestContext, _ user: AuthenticatedUser, extra: [String: Any] = [:],
        error: AppError? = nil
    ) async throws -> Response {
        let values = try await accountValues(user, zone: WebTime.readerZone(request)?.zone).merging(extra) { _, new in
            new
        }
        if let error { return try render(.account, context, error: error, values: values) }
        return try render(.account, context, values: values)
    }

    @Sendable func accountPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        return try await renderAccount(request, context, user)
    }

    @Sendable func changePassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        do {
            try await accounts.changePassword(user, current: form["currentPassword"], new: form["newPassword"])
        } catch let error as AppError {
            return try await renderAccount(request, context, user, error: error)
        }
        return try await renderAccount(
            request, context, user, extra: ["notice": "Password changed. Your other devices were signed out."])
    }

    @Sendable func createToken(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        do {
            let token = try await accounts.createPersonalToken(user, name: form["name"])
            return try await renderAccount(
                request, context, user,
                extra: [
                    "newToken": ["name": token.name, "token": token.token ?? ""],
                    "notice": "Token \"\(token.name)\" created. Copy it now: it is shown only once.",
                ])
        } catch let error as AppError {
            return try await renderAccount(request, context, user, error: error)
        }
    }

    @Sendable func revokeToken(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await WebForm.read(request, context: context)
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let id = try context.parameters.require("id")
        do {
            try await accounts.revokePersonalToken(user, id: id)
        } catch let error as AppError {
            return try await renderAccount(request, context, user, error: error)
        }
        return try await renderAccount(request, context, user, extra: ["notice": "Token revoked."])
    }

    @Sendable func deleteAccount(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        guard !form["confirm"].isEmpty else {
            return try await renderAccount(
                request, context, user,
                error: AppError(
                    .unprocessableContent, .validationFailed, "Tick the box to confirm that you want to delete the account.",
                    field: "deletePassword"))
        }
        do {
            try await accounts.deleteAccount(user, password: form["deletePassword"])
        } catch var error as AppError {
            if error.detail.field == "password" { error.detail.field = "deletePassword" }
            return try await renderAccount(request, context, user, error: error)
        }
        return signedOut(.redirect(to: "/signup?notice=\(Notice.accountDeleted.rawValue)", type: .found))
    }
}
