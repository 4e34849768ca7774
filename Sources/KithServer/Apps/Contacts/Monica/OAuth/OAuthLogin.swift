import Foundation
import Hummingbird
import KithCore

/// `POST /oauth/login {email, password}` -> `{"access_token", "expires_in"}`, Monica's mobile
/// sign-in, limited to a few attempts a minute per client address.
struct OAuthLogin {
    let accounts: AccountService
    let limiter: MonicaRateLimiter
    /// Monica's tokens live a year.
    static let lifetime = 365 * 24 * 3600

    func addRoutes(to router: Router<AppRequestContext>) {
        // Its errors are written in Monica's shapes by ErrorMiddleware (MonicaServer.owns).
        router.post("oauth/login") { request, context in try await login(request, context) }
    }

    private func login(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let verdict = limiter.hit("oauth-login:\(context.clientAddress)")
        guard verdict.allowed else {
            throw MonicaError.tooManyAttempts(headers: [.retryAfter: String(verdict.retryAfter)])
        }
        let input = try MonicaValidator.validate(
            try await MonicaInput.read(request),
            [FieldRules("email", .required, .string), FieldRules("password", .required, .string)])
        do {
            let token = try await accounts.signInForMonicaApp(
                email: input.string("email") ?? "", password: input.string("password") ?? "", lifetime: Self.lifetime,
                origin: SignInOrigin(address: context.clientAddress))
            return MonicaResponse.make(["access_token": .string(token), "expires_in": .int(Int64(Self.lifetime))])
        } catch let error as AppError where error.status == .unauthorized {
            throw MonicaError.notAuthorized
        } catch let error as AppError where error.status == .tooManyRequests {
            throw MonicaError.tooManyAttempts(headers: error.headers)
        }
    }
}
