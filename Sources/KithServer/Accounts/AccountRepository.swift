import Foundation
import SQLKit

/// Storage of users, sessions, tokens, password resets and sign-in failures. Each method is one
/// named operation in one transaction; callers never see SQL.
struct AccountRepository: Sendable {
    let database: KithDatabase
    let ids: IdentifierSource

    // MARK: Users

    /// Inserts the user unless the email is taken; returns nil when it is.
    func createUser(_ user: UserRecord) async throws -> UserRecord? {
        do {
            return try await insertUser(user)
        } catch {
            // Two sign-ups with one email raced on PostgreSQL and the unique index refused the
            // second: that is "taken", not a failure.
            if try await self.user(email: user.email) != nil { return nil }
            throw error
        }
    }

    private func insertUser(_ user: UserRecord) async throws -> UserRecord? {
        try await database.transaction { sql in
            let existing = try await sql.raw("SELECT id FROM users WHERE email = \(bind: user.email)").first()
            guard existing == nil else { return nil }
            try await sql.raw(
                """
                INSERT INTO users (id, email, password_hash, created_at, password_changed_at)
                VALUES (\(bind: user.id), \(bind: user.email), \(bind: user.passwordHash),
                        \(bind: user.createdAt), \(bind: user.passwordChangedAt))
                """
            ).run()
            return user
        }
    }

    func user(email: String) async throws -> UserRecord? {
        try await database.run { sql in
            try await sql.raw("SELECT * FROM users WHERE email = \(bind: email)").record(UserRecord.self)
        }
    }

    func user(id: String) async throws -> UserRecord? {
        try await database.run { sql in
            try await sql.raw("SELECT * FROM users WHERE id = \(bind: id)").record(UserRecord.self)
        }
    }

    /// Sets a new password hash and ends every session of the user except `keepingSession`, and
    /// every token an app's sign-in made.
    func setPassword(userID: String, hash: String, at now: Int64, keepingSession: String?) async throws {
        try await database.transaction { sql in
            try await sql.raw(
                "UPDATE users SET password_hash = \(bind: hash), password_changed_at = \(bind: now) WHERE id = \(bind: userID)"
            ).run()
            if let keepingSession {
                try await sql.raw(
                    "DELETE FROM sessions WHERE user_id = \(bind: userID) AND id <> \(bind: keepingSession)"
                ).run()
            } else {
                try await sql.raw("DELETE FROM sessions WHERE user_id = \(bind: userID)").run()
            }
            // Apps that signed in with the old password sign in again; tokens made for scripts stay.
            try await sql.raw(
                """
                DELETE FROM personal_tokens
                WHERE user_id = \(bind: userID) AND origin = \(bind: PersonalTokenOrigin.signIn.rawValue)
                """
            ).run()
        }
    }

    /// Removes the user and, through foreign keys, everything that belongs to them.
    func deleteUser(id: String, email: String) async throws {
        try await database.transaction { sql in
            // Records in the user's own scope; their mutation ids and sessions go by foreign key.
            try await sql.raw("DELETE FROM sync_records WHERE scope = \(bind: "user:\(id)")").run()
            // Their scope's and their inbox's change counters: nobody will pull from them again.
            try await sql.raw(
                "DELETE FROM sync_scope_counters WHERE scope IN (\(bind: "user:\(id)"), \(bind: InboxScope.of(id)))"
            ).run()
            try await sql.raw("DELETE FROM users WHERE id = \(bind: id)").run()
            try await sql.raw("DELETE FROM login_failures WHERE email = \(bind: email)").run()
        }
    }

    // MARK: Sessions

    func createSession(
        id: String, userID: String, kind: SessionKind, accessHash: String, accessExpiresAt: Int64,
        refreshHash: String?, refreshExpiresAt: Int64?, now: Int64
    ) async throws {
        try await database.run { sql in
            try await sql.raw(
                """
                INSERT INTO sessions (id, user_id, kind, access_hash, access_expires_at, refresh_hash,
                                      refresh_expires_at, created_at, last_used_at)
                VALUES (\(bind: id), \(bind: userID), \(bind: kind.rawValue), \(bind: accessHash),
                        \(bind: accessExpiresAt), \(bind: refreshHash), \(bind: refreshExpiresAt),
                        \(bind: now), \(bind: now))
                """
            ).run()
        }
    }

    /// A session, with its user, for checking an access token against.
    typealias SessionLookup = WithUser<SessionColumns>

    struct SessionColumns: Decodable, Sendable {
        var sessionID: String
        var kind: String
        var accessHash: String
        var accessExpiresAt: Int64
        var familyID: String?
        var familyRole: String?

        enum CodingKeys: String, CodingKey {
            case sessionID = "session_id"
            case kind
            case accessHash = "access_hash"
            case accessExpiresAt = "access_expires_at"
            case familyID = "family_id"
            case familyRole = "family_role"
        }
    }

    /// The session by its key, with its user and the user's family membership (what a sync
    /// request reads next: on PostgreSQL every statement is a round trip); the caller compares its
    /// token's hash with `accessHash`.
    func session(id: String) async throws -> SessionLookup? {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT s.id AS session_id, s.kind, s.access_hash, s.access_expires_at, u.*,
                       f.family_id AS family_id, f.role AS family_role
                FROM sessions s JOIN users u ON u.id = s.user_id
                LEFT JOIN family_members f ON f.user_id = s.user_id
                WHERE s.id = \(bind: id)
                """
            ).record(SessionLookup.self)
        }
    }

    /// The session a token handed out before decision 107 belongs to (its layout has no id).
    func legacySessionID(tokenHash: String) async throws -> String? {
        try await database.read { sql in
            try await sql.raw("SELECT session_id FROM legacy_session_tokens WHERE token_hash = \(bind: tokenHash)")
                .first(decodingColumn: "session_id", as: String.self)
        }
    }

    enum RefreshOutcome: Sendable {
        case rotated(UserRecord)
        /// The token was already exchanged once: it leaked, so its session was ended.
        case reused
        case expired
        case unknown
    }

    /// Exchanges a refresh token of session `sessionID` for new secrets, atomically, so a token
    /// works exactly once.
    func rotateRefreshToken(
        sessionID: String, presentedHash: String, newAccessHash: String, accessExpiresAt: Int64, newRefreshHash: String,
        refreshExpiresAt: Int64, now: Int64
    ) async throws -> RefreshOutcome {
        if database.engine == .postgres,
            let user = try await rotateInOneStatement(
                sessionID: sessionID, presentedHash: presentedHash, newAccessHash: newAccessHash,
                accessExpiresAt: accessExpiresAt, newRefreshHash: newRefreshHash, refreshExpiresAt: refreshExpiresAt,
                now: now)
        {
            return .rotated(user)
        }
        return try await database.transaction { sql in
            // The session and its user in one statement (a round trip less on PostgreSQL).
            guard
                let row = try await sql.raw(
                    """
                    SELECT s.refresh_hash, s.refresh_expires_at, u.*
                    FROM sessions s JOIN users u ON u.id = s.user_id
                    WHERE s.id = \(bind: sessionID)
                    """
                ).record(WithUser<RefreshColumns>.self)
            else { return .unknown }
            guard let current = row.refreshHash, Tokens.constantTimeEquals(current, presentedHash) else {
                let reused = try await sql.raw(
                    """
                    SELECT 1 AS used FROM used_refresh_tokens
                    WHERE session_id = \(bind: sessionID) AND token_hash = \(bind: presentedHash)
                    """
                ).first()
                guard reused != nil else { return .unknown }
                try await sql.raw("DELETE FROM sessions WHERE id = \(bind: sessionID)").run()
                return .reused
            }
            if let expiry = row.refreshExpiresAt, expiry <= now {
                try await sql.raw("DELETE FROM sessions WHERE id = \(bind: sessionID)").run()
                return .expired
            }
            try await sql.raw(
                """
                INSERT INTO used_refresh_tokens (session_id, token_hash, used_at)
                VALUES (\(bind: sessionID), \(bind: presentedHash), \(bind: now))
                """
            ).run()
            try await sql.raw(
                """
                UPDATE sessions SET access_hash = \(bind: newAccessHash), access_expires_at = \(bind: accessExpiresAt),
                    refresh_hash = \(bind: newRefreshHash), refresh_expires_at = \(bind: refreshExpiresAt),
                    last_used_at = \(bind: now)
                WHERE id = \(bind: sessionID)
                """
            ).run()
            return .rotated(row.user)
        }
    }

    /// The usual refresh on PostgreSQL, where each statement is a round trip: the session's
    /// secrets change only if the token presented is its current one and unexpired, the token is
    /// noted as used, and the user read, all in one statement (one statement is atomic: a second
    /// refresh with the same token waits for the row, then finds it changed). Nil: not rotated, and
    /// nothing written; the transaction above then tells a reused token from an unknown or
    /// expired one.
    private func rotateInOneStatement(
        sessionID: String, presentedHash: String, newAccessHash: String, accessExpiresAt: Int64, newRefreshHash: String,
        refreshExpiresAt: Int64, now: Int64
    ) async throws -> UserRecord? {
        try await database.run { sql in
            try await sql.raw(
                """
                WITH rotated AS (
                    UPDATE sessions SET access_hash = \(bind: newAccessHash), access_expires_at = \(bind: accessExpiresAt),
                        refresh_hash = \(bind: newRefreshHash), refresh_expires_at = \(bind: refreshExpiresAt),
                        last_used_at = \(bind: now)
                    WHERE id = \(bind: sessionID) AND refresh_hash = \(bind: presentedHash)
                        AND (refresh_expires_at IS NULL OR refresh_expires_at > \(bind: now))
                    RETURNING user_id
                ), used AS (
                    INSERT INTO used_refresh_tokens (session_id, token_hash, used_at)
                    SELECT \(bind: sessionID), \(bind: presentedHash), \(bind: now) FROM rotated
                )
                SELECT u.* FROM users u JOIN rotated r ON u.id = r.user_id
                """
            ).record(UserRecord.self)
        }
    }

    /// A session's refresh token hash and expiry, with its user.
    private struct RefreshColumns: Decodable, Sendable {
        var refreshHash: String?
        var refreshExpiresAt: Int64?

        enum CodingKeys: String, CodingKey {
            case refreshHash = "refresh_hash"
            case refreshExpiresAt = "refresh_expires_at"
        }
    }

    /// Deletes the sessions none of whose tokens can be used any more (`ExpiredSessionsJob`): an
    /// app's after its refresh token's expiry, a browser's (no refresh token) after its cookie's.
    /// Returns how many.
    func deleteExpiredSessions(now: Int64) async throws -> Int {
        try await database.run { sql in
            try await sql.raw(
                "DELETE FROM sessions WHERE COALESCE(refresh_expires_at, access_expires_at) <= \(bind: now) RETURNING id"
            ).all().count
        }
    }

    func deleteSession(id: String) async throws {
        try await database.run { sql in
            try await sql.raw("DELETE FROM sessions WHERE id = \(bind: id)").run()
        }
    }

    // MARK: Personal access tokens

    func createPersonalToken(_ record: PersonalTokenRecord, tokenHash: String) async throws {
        try await database.run { sql in
            try await sql.raw(
                """
                INSERT INTO personal_tokens (id, user_id, name, token_hash, created_at, expires_at, origin)
                VALUES (\(bind: record.id), \(bind: record.userID), \(bind: record.name), \(bind: tokenHash),
                        \(bind: record.createdAt), \(bind: record.expiresAt), \(bind: record.origin.rawValue))
                """
            ).run()
        }
    }

    func personalTokens(userID: String) async throws -> [PersonalTokenRecord] {
        try await database.run { sql in
            try await sql.raw(
                """
                SELECT id, user_id, name, created_at, last_used_at, expires_at, origin FROM personal_tokens
                WHERE user_id = \(bind: userID) ORDER BY created_at, id
                """
            ).records(PersonalTokenRecord.self)
        }
    }

    /// Returns whether a token of that user was deleted.
    func deletePersonalToken(id: String, userID: String) async throws -> Bool {
        try await database.transaction { sql in
            let found = try await sql.raw(
                "SELECT id FROM personal_tokens WHERE id = \(bind: id) AND user_id = \(bind: userID)"
            ).first()
            guard found != nil else { return false }
            try await sql.raw("DELETE FROM personal_tokens WHERE id = \(bind: id)").run()
            return true
        }
    }

    /// A personal access token found by its hash, with its owner.
    typealias PersonalTokenLookup = WithUser<PersonalTokenColumns>

    struct PersonalTokenColumns: Decodable, Sendable {
        var tokenID: String
        var tokenLastUsedAt: Int64?
        /// The owner's Monica account, if made yet: a personal token is a Monica client's, whose
        /// every request needs it, so the lookup reads it along instead of a statement later.
        var monicaAccount: MonicaAccount?

        enum CodingKeys: String, CodingKey {
            case tokenID = "token_id"
            case tokenLastUsedAt = "token_last_used_at"
            case monicaAccountID = "monica_account_id", monicaMeContactID = "monica_me_contact_id"
            case monicaContactsVersion = "monica_contacts_version", monicaCurrency = "monica_currency"
        }

        init(from decoder: any Decoder) throws {
            let row = try decoder.container(keyedBy: CodingKeys.self)
            tokenID = try row.decode(String.self, forKey: .tokenID)
            tokenLastUsedAt = try row.decodeIfPresent(Int64.self, forKey: .tokenLastUsedAt)
            monicaAccount = try row.decodeIfPresent(Int64.self, forKey: .monicaAccountID).map { id in
                MonicaAccount(
                    id: id, meContactID: try row.decodeIfPresent(Int64.self, forKey: .monicaMeContactID),
                    contactsVersion: try row.decode(Int64.self, forKey: .monicaContactsVersion),
                    currency: try row.decodeIfPresent(String.self, forKey: .monicaCurrency))
            }
        }
    }

    /// Finds the owner of a personal access token and notes its use. "Last used" is shown to the
    /// minute, so it is written at most once a minute: most authenticated requests write nothing.
    /// The token is looked up on a reader, so an API client's requests that only read never queue
    /// for the one writer (every `/api` read with a token used to take the write lock).
    func usePersonalToken(hash: String, now: Int64) async throws -> PersonalTokenLookup? {
        let found = try await database.read { sql in
            try await sql.raw(
                """
                SELECT t.id AS token_id, t.last_used_at AS token_last_used_at, u.*,
                       m.id AS monica_account_id, m.me_contact_id AS monica_me_contact_id,
                       m.contacts_version AS monica_contacts_version, m.currency AS monica_currency
                FROM personal_tokens t JOIN users u ON u.id = t.user_id
                LEFT JOIN monica_accounts m ON m.user_id = u.id
                WHERE t.token_hash = \(bind: hash) AND (t.expires_at IS NULL OR t.expires_at > \(bind: now))
                """
            ).record(PersonalTokenLookup.self)
        }
        if let found, found.tokenLastUsedAt.map({ now - $0 >= 60_000 }) ?? true {
            try await database.run { sql in
                // Never moves the time back, whichever of two requests at once writes last.
                try await sql.raw(
                    """
                    UPDATE personal_tokens SET last_used_at = \(bind: now)
                    WHERE id = \(bind: found.tokenID) AND (last_used_at IS NULL OR last_used_at < \(bind: now))
                    """
                ).run()
            }
        }
        return found
    }

    // MARK: Password resets

    /// Stores a reset token's hash (`PasswordResetMailJob` makes the token as it sends the mail).
    func createPasswordReset(tokenHash: String, userID: String, now: Int64, expiresAt: Int64) async throws {
        try await database.run { sql in
            try await sql.raw(
                """
                INSERT INTO password_resets (token_hash, user_id, created_at, expires_at)
                VALUES (\(bind: tokenHash), \(bind: userID), \(bind: now), \(bind: expiresAt))
                """
            ).run()
        }
    }

    enum ResetOutcome: Sendable { case done, invalid, expired }

    /// Whether a reset token could be used now (`.done`), without using it.
    func passwordResetState(tokenHash: String, now: Int64) async throws -> ResetOutcome {
        try await database.run { sql in
            struct Row: Decodable { var expires_at: Int64; var used_at: Int64? }
            guard
                let row = try await sql.raw(
                    "SELECT expires_at, used_at FROM password_resets WHERE token_hash = \(bind: tokenHash)"
                ).record(Row.self),
                row.used_at == nil
            else { return .invalid }
            return row.expires_at > now ? .done : .expired
        }
    }

    /// Uses a reset token once: sets the password, ends every credential of the account (sessions,
    /// personal tokens, remembered devices: a reset is how an owner takes an account back), spends
    /// every other outstanding reset link, and forgets the email's failed sign-ins.
    func completePasswordReset(tokenHash: String, newPasswordHash: String, now: Int64) async throws -> ResetOutcome {
        try await database.transaction { sql in
            struct Row: Decodable { var user_id: String; var expires_at: Int64; var used_at: Int64? }
            guard
                let row = try await sql.raw(
                    "SELECT user_id, expires_at, used_at FROM password_resets WHERE token_hash = \(bind: tokenHash)"
                ).record(Row.self),
                row.used_at == nil
            else { return .invalid }
            guard row.expires_at > now else { return .expired }
            try await sql.raw(
                "UPDATE password_resets SET used_at = \(bind: now) WHERE user_id = \(bind: row.user_id) AND used_at IS NULL"
            ).run()
            try await sql.raw(
                """
                UPDATE users SET password_hash = \(bind: newPasswordHash), password_changed_at = \(bind: now)
                WHERE id = \(bind: row.user_id)
                """
            ).run()
            try await sql.raw("DELETE FROM sessions WHERE user_id = \(bind: row.user_id)").run()
            try await sql.raw("DELETE FROM personal_tokens WHERE user_id = \(bind: row.user_id)").run()
            try await sql.raw("DELETE FROM known_devices WHERE user_id = \(bind: row.user_id)").run()
            try await sql.raw(
                "DELETE FROM login_failures WHERE email = (SELECT email FROM users WHERE id = \(bind: row.user_id))"
            ).run()
            return .done
        }
    }

    // MARK: Sign-in throttling

    /// When the failed sign-ins for `email` since `since` happened, oldest first.
    func recentLoginFailures(email: String, since: Int64) async throws -> [Int64] {
        try await database.run { sql in
            try await sql.raw(
                """
                SELECT failed_at FROM login_failures
                WHERE email = \(bind: email) AND failed_at > \(bind: since) ORDER BY failed_at
                """
            ).all(decodingColumn: "failed_at", as: Int64.self)
        }
    }

    /// When the failed sign-ins from client address `client` since `since` happened, whatever the
    /// email, oldest first.
    func recentLoginFailures(client: String, since: Int64) async throws -> [Int64] {
        try await database.run { sql in
            try await sql.raw(
                """
                SELECT failed_at FROM login_failures
                WHERE client = \(bind: client) AND failed_at > \(bind: since) ORDER BY failed_at
                """
            ).all(decodingColumn: "failed_at", as: Int64.self)
        }
    }

    func recordLoginFailure(email: String, client: String, at now: Int64, forgetBefore: Int64) async throws {
        try await database.transaction { sql in
            try await sql.raw(
                """
                INSERT INTO login_failures (id, email, client, failed_at)
                VALUES (\(bind: ids.text()), \(bind: email), \(bind: client), \(bind: now))
                """
            ).run()
            // Old failures no longer count; dropping them keeps the table small.
            try await sql.raw("DELETE FROM login_failures WHERE failed_at <= \(bind: forgetBefore)").run()
        }
    }

    func clearLoginFailures(email: String) async throws {
        try await database.run { sql in
            try await sql.raw("DELETE FROM login_failures WHERE email = \(bind: email)").run()
        }
    }

    // MARK: Devices that signed in before

    /// Whether the device token with this hash belongs to `userID`; notes its use when it does.
    func useKnownDevice(hash: String, userID: String, now: Int64) async throws -> Bool {
        try await database.transaction { sql in
            let found = try await sql.raw(
                "SELECT token_hash FROM known_devices WHERE token_hash = \(bind: hash) AND user_id = \(bind: userID)"
            ).first()
            guard found != nil else { return false }
            try await sql.raw("UPDATE known_devices SET last_used_at = \(bind: now) WHERE token_hash = \(bind: hash)")
                .run()
            return true
        }
    }

    func rememberDevice(hash: String, userID: String, now: Int64) async throws {
        try await database.run { sql in
            try await sql.raw(
                """
                INSERT INTO known_devices (token_hash, user_id, created_at, last_used_at)
                VALUES (\(bind: hash), \(bind: userID), \(bind: now), \(bind: now))
                """
            ).run()
        }
    }
}
