import Foundation
import Hummingbird
import KithCore

/// `/v1/auth/*` and `/v1/me`: the JSON account API.
struct AuthController {
    let accounts: AccountService

    func addRoutes(to router: Router<AppRequestContext>) {
        router.on(KithAPI.Auth.signUp, use: signUp)
            .on(KithAPI.Auth.logIn, use: logIn)
            .on(KithAPI.Auth.refresh, use: refresh)
            .on(KithAPI.Auth.requestPasswordReset, use: requestPasswordReset)
            .on(KithAPI.Auth.confirmPasswordReset, use: confirmPasswordReset)
        router.group().add(middleware: BearerAuthMiddleware(accounts: accounts))
            .on(KithAPI.Auth.logOut, use: logOut)
            .on(KithAPI.Auth.changePassword, use: changePassword)
            .on(KithAPI.Auth.me, use: me)
            .on(KithAPI.Auth.deleteAccount, use: deleteAccount)
    }

    @Sendable func signUp(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(CredentialsRequest.self, context: context)
        let (user, session) = try await accounts.signUp(
            email: body.email, password: body.password, kind: .app,
            origin: SignInOrigin(address: context.clientAddress, deviceToken: body.deviceToken))
        return try JSONResponse.make(Self.sessionBody(user, session), status: .created)
    }

    @Sendable func logIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(CredentialsRequest.self, context: context)
        let (user, session) = try await accounts.signIn(
            email: body.email, password: body.password, kind: .app,
            origin: SignInOrigin(address: context.clientAddress, deviceToken: body.deviceToken))
        return try JSONResponse.make(Self.sessionBody(user, session))
    }

    @Sendable func refresh(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(RefreshRequest.self, context: context)
        let (user, session) = try await accounts.refresh(refreshToken: body.refreshToken)
        return try JSONResponse.make(Self.sessionBody(user, session))
    }

    @Sendable func logOut(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await accounts.signOut(context.requireUser())
        return Response(status: .noContent)
    }

    @Sendable func me(_ request: Request, context: AppRequestContext) async throws -> Response {
        try JSONResponse.make(context.requireUser().dto)
    }

    @Sendable func changePassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(ChangePasswordRequest.self, context: context)
        try await accounts.changePassword(context.requireUser(), current: body.currentPassword, new: body.newPassword)
        return Response(status: .noContent)
    }

    @Sendable func requestPasswordReset(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(PasswordResetRequest.self, context: context)
        try await accounts.requestPasswordReset(email: body.email)
        return Response(status: .accepted)
    }

    @Sendable func confirmPasswordReset(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(PasswordResetConfirmRequest.self, context: context)
        try await accounts.confirmPasswordReset(token: body.token, newPassword: body.newPassword)
        return Response(status: .noContent)
    }

    @Sendable func deleteAccount(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(DeleteAccountRequest.self, context: context)
        try await accounts.deleteAccount(context.requireUser(), password: body.password)
        return Response(status: .noContent)
    }

    static func sessionBody(_ user: UserRecord, _ session: IssuedSession) -> AuthSessionResponse {
        AuthSessionResponse(
            user: user.dto, accessToken: session.accessToken, refreshToken: session.refreshToken ?? "",
            expiresIn: session.accessExpiresIn, deviceToken: session.deviceToken)
    }
}
