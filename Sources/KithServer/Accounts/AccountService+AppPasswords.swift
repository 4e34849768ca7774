import Foundation
import KithCore

extension AccountService {
    /// An app password, as the phone's own Contacts and Reminders apps sign in (HTTP Basic, DAV):
    /// the account's email and one of its personal access tokens, never the account password, so
    /// a token can be revoked on its own and the password never sits in a phone's settings.
    ///
    /// Failures are counted with the sign-in failures and throttled as they are (per client
    /// address, then per email). A valid token is let through even when its email has failures
    /// counted against it: a token cannot be guessed, so the per-email limit only keeps a guesser
    /// from trying many, and must not lock the owner's phone out.
    func authenticateAppPassword(email rawEmail: String, token: String, origin: SignInOrigin) async throws
        -> AuthenticatedUser
    {
        let email = CredentialRules.normalizedEmail(rawEmail)
        let now = clock.nowMillis
        let windowStart = now - Int64(settings.loginFailureWindow * 1000)
        let fromClient = try await repository.recentLoginFailures(client: origin.address, since: windowStart)
        if fromClient.count >= settings.clientFailureLimit, let oldest = fromClient.first {
            throw Self.tooManyAttempts(oldest: oldest, windowStart: windowStart)
        }
        if token.hasPrefix(TokenKind.personal.rawValue + "_"),
            let user = try? await authenticate(token: token, allowing: [.app]),
            CredentialRules.normalizedEmail(user.email) == email
        {
            return user
        }
        let valid = CredentialRules.validateEmail(email) == nil
        try await repository.recordLoginFailure(
            email: valid ? email : "", client: origin.address, at: now, forgetBefore: windowStart)
        if valid {
            let failures = try await repository.recentLoginFailures(email: email, since: windowStart)
            if failures.count > settings.loginFailureLimit, let oldest = failures.first {
                throw Self.tooManyAttempts(oldest: oldest, windowStart: windowStart)
            }
        }
        throw AppError(
            .unauthorized, .invalidCredentials,
            "The email or app password is incorrect. Use your account's email and a personal access token (Account → API tokens), not your password."
        )
    }
}
