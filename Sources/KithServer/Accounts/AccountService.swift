import Foundation
import KithCore
import Logging

/// The account rules: sign-up, sign-in, sessions, passwords, personal tokens, deletion. The JSON API
/// and the web pages both call this, so they can't disagree.
struct AccountService: Sendable {
    let repository: AccountRepository
    let hasher: PasswordHasher
    /// Where the reset mail is queued (`PasswordResetMailJob` sends it).
    let jobs: JobQueue
    let settings: AccountSettings
    let clock: Clock
    let ids: IdentifierSource
    let publicURL: @Sendable () -> String
    let mailFrom: String
    /// What must happen before an account is deleted (leaving its family); may refuse.
    var beforeDeletingAccount: @Sendable (_ userID: String) async throws -> Void = { _ in }
    let logger: Logger

    // MARK: Sign-up and sign-in

    func signUp(email rawEmail: String, password: String, kind: SessionKind, origin: SignInOrigin) async throws
        -> (UserRecord, IssuedSession)
    {
        let email = CredentialRules.normalizedEmail(rawEmail)
        if let problem = CredentialRules.validateEmail(email) { throw AppError.validation(problem) }
        if let problem = CredentialRules.validateNewPassword(password) { throw AppError.validation(problem) }
        let now = clock.nowMillis
        let record = UserRecord(
            id: ids.text(), email: email, passwordHash: try await hasher.hash(password),
            createdAt: now, passwordChangedAt: now)
        guard let user = try await repository.createUser(record) else {
            throw AppError(
                .conflict, .emailTaken, "An account with this email already exists. Sign in instead.", field: "email")
        }
        var session = try await startSession(for: user, kind: kind)
        session.deviceToken = try await rememberDevice(of: user, presented: nil)
        return (user, session)
    }

    func signIn(email rawEmail: String, password: String, kind: SessionKind, origin: SignInOrigin) async throws
        -> (UserRecord, IssuedSession)
    {
        let (user, knownDevice) = try await verifyCredentials(email: rawEmail, password: password, origin: origin)
        var session = try await startSession(for: user, kind: kind)
        session.deviceToken = try await rememberDevice(of: user, presented: knownDevice ? origin.deviceToken : nil)
        return (user, session)
    }

    /// The user with this email and password, and whether the attempt came from a device that
    /// signed in to that account before. Failures are throttled two ways (docs/accounts.md):
    /// per client address across every email, so one client can't spray a password over many
    /// accounts; and per email, so many clients can't take turns guessing one account's password.
    /// The per-email limit does not stop a device that signed in before, so a guesser can't lock
    /// the owner out (and a password reset always works).
    private func verifyCredentials(email rawEmail: String, password: String, origin: SignInOrigin) async throws
        -> (UserRecord, knownDevice: Bool)
    {
        let email = CredentialRules.normalizedEmail(rawEmail)
        let now = clock.nowMillis
        let windowStart = now - Int64(settings.loginFailureWindow * 1000)
        let fromClient = try await repository.recentLoginFailures(client: origin.address, since: windowStart)
        if fromClient.count >= settings.clientFailureLimit, let oldest = fromClient.first {
            throw Self.tooManyAttempts(oldest: oldest, windowStart: windowStart)
        }
        guard CredentialRules.validateEmail(email) == nil else {
            // No account can have this email; refuse it in the time a wrong password takes.
            _ = try await hasher.verify(password, against: nil)
            // Counted for the client only: the text may be anything (PostgreSQL refuses NUL).
            try await repository.recordLoginFailure(
                email: "", client: origin.address, at: now, forgetBefore: windowStart)
            throw AppError.invalidCredentials
        }
        let user = try await repository.user(email: email)
        var knownDevice = false
        if let user, let deviceToken = origin.deviceToken {
            knownDevice = try await repository.useKnownDevice(hash: Tokens.hash(deviceToken), userID: user.id, now: now)
        }
        let failures = try await repository.recentLoginFailures(email: email, since: windowStart)
        if !knownDevice, failures.count >= settings.loginFailureLimit, let oldest = failures.first {
            throw Self.tooManyAttempts(oldest: oldest, windowStart: windowStart)
        }
        guard try await hasher.verify(password, against: user?.passwordHash), let user else {
            try await repository.recordLoginFailure(
                email: email, client: origin.address, at: now, forgetBefore: windowStart)
            throw AppError.invalidCredentials
        }
        if !failures.isEmpty { try await repository.clearLoginFailures(email: email) }
        return (user, knownDevice)
    }

    static func tooManyAttempts(oldest: Int64, windowStart: Int64) -> AppError {
        let retryAfter = max(1, Int((oldest - windowStart + 999) / 1000))
        return AppError(
            .tooManyRequests, .tooManyAttempts,
            "Too many failed sign-in attempts. Try again in \(Self.describe(seconds: retryAfter)).",
            headers: [.retryAfter: String(retryAfter)])
    }

    /// The device token to hand back after a sign-in: the one presented when it is this user's
    /// (already checked), else a new one.
    private func rememberDevice(of user: UserRecord, presented: String?) async throws -> String {
        if let presented { return presented }
        let token = Tokens.generate(.device)
        try await repository.rememberDevice(hash: Tokens.hash(token), userID: user.id, now: clock.nowMillis)
        return token
    }

    private func startSession(for user: UserRecord, kind: SessionKind) async throws -> IssuedSession {
        let now = clock.nowMillis
        let lifetime = kind == .web ? settings.webSessionLifetime : settings.accessTokenLifetime
        let id = ids.uuid()
        let access = Tokens.generate(kind == .web ? .web : .access, session: id)
        let refresh = kind == .app ? Tokens.generate(.refresh, session: id) : nil
        let session = IssuedSession(
            sessionID: id.lowercased, accessToken: access, refreshToken: refresh,
            accessExpiresIn: Int(lifetime))
        try await repository.createSession(
            id: session.sessionID, userID: user.id, kind: kind, accessHash: Tokens.hash(access),
            accessExpiresAt: now + Int64(lifetime * 1000), refreshHash: refresh.map(Tokens.hash),
            refreshExpiresAt: refresh.map { _ in now + Int64(settings.refreshTokenLifetime * 1000) }, now: now)
        return session
    }

    func refresh(refreshToken: String) async throws -> (UserRecord, IssuedSession) {
        let now = clock.nowMillis
        let presentedHash = Tokens.hash(refreshToken)
        guard let sessionID = try await session(of: refreshToken, hash: presentedHash), let id = UUID(text: sessionID)
        else {
            throw Self.unknownRefreshToken
        }
        let access = Tokens.generate(.access, session: id)
        let refresh = Tokens.generate(.refresh, session: id)
        let outcome = try await repository.rotateRefreshToken(
            sessionID: sessionID, presentedHash: presentedHash, newAccessHash: Tokens.hash(access),
            accessExpiresAt: now + Int64(settings.accessTokenLifetime * 1000), newRefreshHash: Tokens.hash(refresh),
            refreshExpiresAt: now + Int64(settings.refreshTokenLifetime * 1000), now: now)
        switch outcome {
        case .rotated(let user):
            return (
                user,
                IssuedSession(
                    sessionID: sessionID, accessToken: access, refreshToken: refresh,
                    accessExpiresIn: Int(settings.accessTokenLifetime))
            )
        case .reused:
            logger.warning("a used refresh token was presented again; its session was revoked")
            throw AppError(.unauthorized, .invalidToken, "This refresh token was already used. Sign in again.")
        case .expired:
            throw AppError(.unauthorized, .tokenExpired, "Your session expired. Sign in again.")
        case .unknown:
            throw Self.unknownRefreshToken
        }
    }

    private static let unknownRefreshToken = AppError(
        .unauthorized, .invalidToken, "This refresh token is not valid. Sign in again.")

    /// The id of the session a token names: read from the token itself, or, for one handed out
    /// before tokens carried it, looked up by the token's hash (decision 107).
    private func session(of token: String, hash: String) async throws -> String? {
        if let id = Tokens.session(of: token) { return id.lowercased }
        return try await repository.legacySessionID(tokenHash: hash)
    }

    // MARK: Authentication of requests

    /// Resolves a bearer token (access token, web session or personal access token) to its user.
    /// A personal access token is an API client's token: it counts as `.app` only, so a cookie
    /// (`[.web]`) never takes one (it would sign a browser in, and skip `/api`'s rate limit).
    func authenticate(token: String, allowing kinds: Set<SessionKind> = [.app]) async throws -> AuthenticatedUser {
        let hash = Tokens.hash(token)
        if token.hasPrefix(TokenKind.personal.rawValue + "_") {
            guard kinds.contains(.app),
                let found = try await repository.usePersonalToken(hash: hash, now: clock.nowMillis)
            else { throw AppError.unauthorized }
            var user = authenticated(found.user, sessionID: nil, personalTokenID: found.tokenID)
            user.monicaAccount = found.monicaAccount
            return user
        }
        guard let sessionID = try await session(of: token, hash: hash),
            let found = try await repository.session(id: sessionID),
            Tokens.constantTimeEquals(found.accessHash, hash),
            let kind = SessionKind(rawValue: found.kind), kinds.contains(kind)
        else { throw AppError.unauthorized }
        guard found.accessExpiresAt > clock.nowMillis else { throw AppError.tokenExpired }
        var user = authenticated(found.user, sessionID: found.sessionID, personalTokenID: nil)
        user.family = FamilyLookup(familyID: found.familyID, role: found.familyRole)
        return user
    }

    private func authenticated(_ user: UserRecord, sessionID: String?, personalTokenID: String?) -> AuthenticatedUser {
        AuthenticatedUser(
            id: UUID(text: user.id) ?? .zero, email: user.email, createdAt: Date(epochMillis: user.createdAt),
            sessionID: sessionID, personalTokenID: personalTokenID)
    }

    func signOut(_ user: AuthenticatedUser) async throws {
        guard let sessionID = user.sessionID else {
            throw AppError(
                .badRequest, .badRequest,
                "A personal access token has no session to sign out of; revoke the token instead.")
        }
        try await repository.deleteSession(id: sessionID)
    }

    // MARK: Passwords

    func changePassword(_ user: AuthenticatedUser, current: String, new: String) async throws {
        guard let record = try await repository.user(id: user.id.lowercased) else { throw AppError.unauthorized }
        guard try await hasher.verify(current, against: record.passwordHash) else {
            throw AppError(
                .unauthorized, .invalidCredentials, "The current password is incorrect.", field: "currentPassword")
        }
        if let problem = CredentialRules.validateNewPassword(new, field: "newPassword") {
            throw AppError.validation(problem)
        }
        try await repository.setPassword(
            userID: record.id, hash: try await hasher.hash(new), at: clock.nowMillis, keepingSession: user.sessionID)
    }

    /// Always succeeds from the caller's point of view, so it never tells whether an email has an account.
    func requestPasswordReset(email rawEmail: String) async throws {
        let email = CredentialRules.normalizedEmail(rawEmail)
        if let problem = CredentialRules.validateEmail(email) { throw AppError.validation(problem) }
        guard let user = try await repository.user(email: email) else { return }
        let now = clock.nowMillis
        if let last = try await jobs.repository.lastEnqueued(
            kind: PasswordResetMailJob.kind, keyPrefix: PasswordResetMailJob.keyPrefix(userID: user.id)),
            now - last < Int64(settings.passwordResetMailInterval * 1000)
        {
            logger.info("password reset mail skipped: one was asked for less than 2 minutes ago")
            return
        }
        // A job, not a send: the answer takes the same time whether or not the account exists, a
        // slow mail server never holds the request, and a mail server that is down is tried again
        // (docs/jobs.md). The job makes the token when it sends, so no secret waits in the table.
        try await jobs.enqueue(PasswordResetMailJob.job(userID: user.id, requestedAt: now))
    }

    /// Why a reset link can't be used, or nil when it can; lets the page say so before asking for a password.
    func passwordResetProblem(token: String) async throws -> AppError? {
        switch try await repository.passwordResetState(tokenHash: Tokens.hash(token), now: clock.nowMillis) {
        case .done: nil
        case .invalid: AppError.invalidResetLink
        case .expired: AppError.expiredResetLink
        }
    }

    func confirmPasswordReset(token: String, newPassword: String) async throws {
        if let problem = CredentialRules.validateNewPassword(newPassword, field: "newPassword") {
            throw AppError.validation(problem)
        }
        let hash = try await hasher.hash(newPassword)
        switch try await repository.completePasswordReset(
            tokenHash: Tokens.hash(token), newPasswordHash: hash, now: clock.nowMillis)
        {
        case .done: return
        case .invalid: throw AppError.invalidResetLink
        case .expired: throw AppError.expiredResetLink
        }
    }

    // MARK: Account deletion

    func deleteAccount(_ user: AuthenticatedUser, password: String) async throws {
        guard let record = try await repository.user(id: user.id.lowercased) else { throw AppError.unauthorized }
        guard try await hasher.verify(password, against: record.passwordHash) else {
            throw AppError(.unauthorized, .invalidCredentials, "The password is incorrect.", field: "password")
        }
        try await beforeDeletingAccount(record.id)
        try await repository.deleteUser(id: record.id, email: record.email)
        logger.info("account deleted", metadata: ["user": "\(record.id)"])
    }

    // MARK: Personal access tokens

    func createPersonalToken(_ user: AuthenticatedUser, name rawName: String) async throws -> PersonalTokenDTO {
        if let problem = CredentialRules.validateTokenName(rawName) { throw AppError.validation(problem) }
        let token = Tokens.generate(.personal)
        let record = PersonalTokenRecord(
            id: ids.text(), userID: user.id.lowercased,
            name: rawName.trimmedWhitespace, createdAt: clock.nowMillis, lastUsedAt: nil,
            expiresAt: nil, origin: .user)
        try await repository.createPersonalToken(record, tokenHash: Tokens.hash(token))
        return record.dto(token: token)
    }

    /// Monica's mobile sign-in: email and password for a token that lasts `lifetime` seconds,
    /// listed and revocable with the user's other personal tokens, and ended by a password change.
    func signInForMonicaApp(email: String, password: String, lifetime: Int, origin: SignInOrigin) async throws
        -> String
    {
        let (user, _) = try await verifyCredentials(email: email, password: password, origin: origin)
        let token = Tokens.generate(.personal)
        let now = clock.nowMillis
        let record = PersonalTokenRecord(
            id: ids.text(), userID: user.id, name: "Monica app sign-in", createdAt: now, lastUsedAt: nil,
            expiresAt: now + Int64(lifetime) * 1000, origin: .signIn)
        try await repository.createPersonalToken(record, tokenHash: Tokens.hash(token))
        return token
    }

    func personalTokens(_ user: AuthenticatedUser) async throws -> [PersonalTokenDTO] {
        try await repository.personalTokens(userID: user.id.lowercased).map { $0.dto() }
    }

    func revokePersonalToken(_ user: AuthenticatedUser, id: String) async throws {
        guard try await repository.deletePersonalToken(id: id.lowercased(), userID: user.id.lowercased)
        else { throw AppError.notFound("That token") }
    }

    static func describe(seconds: Int) -> String {
        seconds < 60 ? "\(seconds) seconds" : "\((seconds + 59) / 60) minutes"
    }
}

extension AppError {
    static let invalidResetLink = AppError(
        .badRequest, .invalidToken, "This reset link is not valid or was already used. Ask for a new one.",
        field: "token")
    static let expiredResetLink = AppError(
        .badRequest, .tokenExpired, "This reset link has expired. Ask for a new one.", field: "token")
}
