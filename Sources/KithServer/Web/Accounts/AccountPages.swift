import Foundation
import Hummingbird
import KithCore

/// The account pages: sign up, sign in, sign out, forgot and reset password, and the account page
/// (password, API tokens, devices that get notifications, deletion). Same `AccountService` and
/// `WebPushDevices` as the JSON API.
struct AccountPages {
    let accounts: AccountService
    let renderer: WebRenderer
    let session: WebSessionMiddleware
    let devices: WebPushDevices
    /// The Contacts app's currency for gifts' values.
    let giftCurrency: GiftCurrencySetting
    /// What an app says stands in the way of deleting an account (nil: nothing).
    var deletionBlocker: @Sendable (_ userID: String) async throws -> AccountDeletionBlocker? = { _ in nil }

    func addRoutes(to router: Router<AppRequestContext>) {
        let pages = router.group().add(middleware: session)
        pages.get("signup") { request, context in try render(SignUpModel(notice: notice(request)), context) }
        pages.post("signup", use: signUp)
        pages.get("signin", use: signInPage)
        pages.post("signin", use: signIn)
        pages.post("signout", use: signOut)
        pages.get("forgot-password") { _, context in try render(ForgotPasswordModel(), context) }
        pages.post("forgot-password", use: forgotPassword)
        pages.get("reset-password", use: resetPasswordPage)
        pages.post("reset-password", use: resetPassword)
        pages.get("account", use: accountPage)
        pages.post("account/password", use: changePassword)
        pages.post("account/tokens", use: createToken)
        pages.post("account/tokens/{id}/revoke", use: revokeToken)
        pages.post("account/devices/{id}", use: changeDevice)
        pages.post("account/devices/{id}/remove", use: removeDevice)
        pages.post("account/reminder-time", use: setReminderTime)
        pages.post("account/currency", use: setCurrency)
        pages.post("account/delete", use: deleteAccount)
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

    private func render<Model: AccountPageModel>(
        _ page: Model, _ context: AppRequestContext, status: HTTPResponse.Status = .ok
    ) throws -> Response {
        try renderer.page(page, title: Model.title, context: context, status: status)
    }

    /// Re-renders a form after `error`: a field's message goes next to that field.
    private func render(_ page: some AccountPageModel, _ context: AppRequestContext, error: AppError) throws -> Response
    {
        var page = page
        page.refuse(error)
        let status: HTTPResponse.Status = error.status == .tooManyRequests ? .tooManyRequests : .unprocessableContent
        var response = try render(page, context, status: status)
        if let retryAfter = error.headers[.retryAfter] { response.headers[.retryAfter] = retryAfter }
        return response
    }

    /// The notice a redirect's query carries, if any.
    private func notice(_ request: Request) -> String? {
        request.uri.formQuery.get("notice").flatMap(Notice.init(rawValue:))?.text
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
        try await startSession(request, context, page: SignUpModel()) {
            try await accounts.signUp(email: $0, password: $1, kind: .web, origin: $2)
        }
    }

    /// `next`: the page to go back to (`SignInReturn`); `ended=1`: the person's session ended there.
    @Sendable func signInPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.formQuery
        let next = query.get("next").flatMap(SignInReturn.safePath)
        if context.user != nil { return .redirect(to: next ?? "/", type: .found) }
        let ended = query.get("ended") == "1"
        return try render(
            SignInModel(
                next: next,
                notice: ended
                    ? "Your session ended. Sign in again to go back to "
                        + (next == nil ? "Kith." : "the page you were on.") : notice(request)), context)
    }

    @Sendable func signIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await startSession(request, context, page: SignInModel()) {
            try await accounts.signIn(email: $0, password: $1, kind: .web, origin: $2)
        }
    }

    /// Sign-up and sign-in alike: read email and password, start a web session, go to the home page;
    /// on a refusal, show the form again with the error and the email kept.
    private func startSession<Form: CredentialsForm>(
        _ request: Request, _ context: AppRequestContext, page: CredentialsModel<Form>,
        _ start: (String, String, SignInOrigin) async throws -> (UserRecord, IssuedSession)
    ) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        let origin = SignInOrigin(
            address: context.clientAddress, deviceToken: request.cookies[Self.deviceCookie]?.value)
        do {
            let (_, issued) = try await start(form["email"], form["password"], origin)
            let destination = SignInReturn.safePath(form["next"]) ?? "/"
            var response = signedIn(.redirect(to: destination, type: .found), token: issued.accessToken)
            if let device = issued.deviceToken {
                response.setCookie(session.cookie(Self.deviceCookie, device, maxAge: Self.deviceCookieLifetime))
            }
            return response
        } catch let error as AppError {
            var page = page
            page.email = form["email"]
            page.next = SignInReturn.safePath(form["next"])
            return try render(page, context, error: error)
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
            return try render(ForgotPasswordModel(email: form["email"]), context, error: error)
        }
        let minutes = Int(accounts.settings.passwordResetLifetime / 60)
        return try render(
            ForgotPasswordModel(
                sent: true,
                notice:
                    "If an account exists for that email, we sent a link to reset the password. It works for \(minutes) minutes."
            ), context)
    }

    @Sendable func resetPasswordPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = request.uri.formQuery.get("token") ?? ""
        if let problem = try await accounts.passwordResetProblem(token: token) {
            return try render(
                ResetPasswordModel(invalidLink: true, error: problem.detail.message), context, status: .badRequest)
        }
        return try render(ResetPasswordModel(token: token), context)
    }

    @Sendable func resetPassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        do {
            try await accounts.confirmPasswordReset(token: form["token"], newPassword: form["newPassword"])
        } catch let error as AppError where error.detail.field == "token" {
            return try render(
                ResetPasswordModel(invalidLink: true, error: error.detail.message), context, status: .badRequest)
        } catch let error as AppError {
            return try render(ResetPasswordModel(token: form["token"]), context, error: error)
        }
        return signedOut(.redirect(to: "/signin?notice=\(Notice.passwordReset.rawValue)", type: .found))
    }

    // MARK: Account page

    /// The account page as `show` adjusts it (a notice, a new token), or with `error`.
    private func renderAccount(
        _ request: Request, _ context: AppRequestContext, _ user: AuthenticatedUser, error: AppError? = nil,
        _ show: (inout AccountModel) -> Void = { _ in }
    ) async throws -> Response {
        var page = AccountModel(
            user, tokens: try await accounts.personalTokens(user), devices: try await devices.devices(of: user),
            reminderTime: try await devices.reminderTime(of: user), zone: WebTime.readerZone(request)?.zone,
            currency: try await giftCurrency.current(of: user), publicURL: accounts.publicURL())
        page.deletionBlocker = try await deletionBlocker(user.id.lowercased)
        show(&page)
        if let error { return try render(page, context, error: error) }
        return try render(page, context)
    }

    @Sendable func accountPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        return try await renderAccount(request, context, user)
    }

    /// A form of the account page: read (CSRF-checked) for the signed-in person, `act` done, and
    /// the page shown again as `act` says (a notice, a new token), or with the refusal by its field.
    private func accountForm(
        _ request: Request, _ context: AppRequestContext,
        _ act: (WebForm, AuthenticatedUser) async throws -> (inout AccountModel) -> Void
    ) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let show: (inout AccountModel) -> Void
        do {
            show = try await act(form, user)
        } catch let error as AppError {
            return try await renderAccount(request, context, user, error: error)
        }
        return try await renderAccount(request, context, user, show)
    }

    @Sendable func changePassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await accountForm(request, context) { form, user in
            try await accounts.changePassword(user, current: form["currentPassword"], new: form["newPassword"])
            return { $0.notice = "Password changed. Your other devices were signed out." }
        }
    }

    @Sendable func createToken(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await accountForm(request, context) { form, user in
            let token = try await accounts.createPersonalToken(user, name: form["name"])
            return {
                $0.newToken = .init(name: token.name, token: token.token ?? "")
                $0.notice = "Token \"\(token.name)\" created. Copy it now: it is shown only once."
            }
        }
    }

    @Sendable func revokeToken(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await accountForm(request, context) { _, user in
            try await accounts.revokePersonalToken(user, id: try context.parameters.require("id"))
            return { $0.notice = "Token revoked." }
        }
    }

    /// Saves which kinds a device is told (a box per kind; an unticked box is not sent).
    @Sendable func changeDevice(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await accountForm(request, context) { form, user in
            let kinds = WebPushKind.allCases.filter { !form[AccountModel.kindField($0)].isEmpty }.map(\.rawValue)
            let device = try await devices.update(
                try context.parameters.require("id"), of: user, WebPushDeviceUpdate(kinds: kinds))
            return {
                $0.notice =
                    kinds.isEmpty ? "\(device.name) gets no notifications now." : "Saved what \(device.name) is told."
            }
        }
    }

    @Sendable func removeDevice(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await accountForm(request, context) { _, user in
            try await devices.remove(try context.parameters.require("id"), of: user)
            return { $0.notice = "Device removed. It gets no more notifications until it is switched on there again." }
        }
    }

    @Sendable func setReminderTime(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await accountForm(request, context) { form, user in
            let time = try await devices.setReminderTime(of: user, hour: form["hour"], zone: form["timeZone"])
            let hour = (time.hour < 10 ? "0" : "") + "\(time.hour):00"
            return { $0.notice = "Contacts reminders come at \(hour), \(time.zoneID) time." }
        }
    }

    @Sendable func setCurrency(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await accountForm(request, context) { form, user in
            let currency = try await giftCurrency.choose(form["currency"], for: user)
            return { $0.notice = "Gifts' values are now in \(currency.name) (\(currency.code))." }
        }
    }

    @Sendable func deleteAccount(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        guard !form["confirm"].isEmpty else {
            return try await renderAccount(
                request, context, user,
                error: AppError(
                    .unprocessableContent, .validationFailed,
                    "Tick the box to confirm that you want to delete the account.",
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
