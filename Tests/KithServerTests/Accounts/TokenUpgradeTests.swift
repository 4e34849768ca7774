import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Logging
import Testing

@testable import KithServer

/// Decision 107 changed the layout of a session's tokens (they now carry the session's id) and
/// made the sessions table anew. A server upgraded over a database of version 10 must keep its
/// people signed in: the tokens it handed out before still work, rotate into the new layout, and a
/// used refresh token from before still ends its session.
@Suite("Tokens handed out before the upgrade")
struct TokenUpgradeTests {
    /// What a server of version 10 had handed out and stored (only the hashes).
    struct OldTokens {
        let userID = UUID().lowercased
        let app = UUID().lowercased
        let web = UUID().lowercased
        let stolen = UUID().lowercased
        let appAccess = Tokens.generate(.access)
        let appRefresh = Tokens.generate(.refresh)
        let webCookie = Tokens.generate(.web)
        let stolenAccess = Tokens.generate(.access)
        let stolenRefresh = Tokens.generate(.refresh)
        /// Exchanged once already, before the upgrade.
        let stolenUsed = Tokens.generate(.refresh)
    }

    @Test(arguments: Engine.available)
    func oldTokensKeepWorkingRotateIntoTheNewLayoutAndAUsedOneStillEndsItsSession(engine: Engine) async throws {
        let scratch = try await PostgresScratch.create(for: engine)
        let directory = try makeTemporaryDirectory("kith-upgrade").path
        let old = OldTokens()
        do {
            var config = ServerConfig()
            config.dataDirectory = directory
            config.databaseURL = scratch?.url
            try await Self.writeVersion10(config.databaseLocation, old, now: TestClock().now.epochMillis)
            try await TestServer.withRouter(engine, sharedDatabaseURL: scratch?.url, configure: { $0.dataDirectory = directory }) {
                _, client in
                #expect(try await client.call(.get, "/v1/me", token: old.appAccess).status == .ok)
                let page = try await client.call(.get, "/account", headers: [.cookie: "kith_session=\(old.webCookie)"])
                #expect(page.status == .ok)
                #expect(page.body.getString(at: 0, length: page.body.readableBytes)?.contains("ada@example.com") == true)

                // A refresh token used before the upgrade, presented again: its session ends.
                let replay = try await client.call(.post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: old.stolenUsed))
                #expect(replay.status == .unauthorized)
                #expect(try await client.call(.get, "/v1/me", token: old.stolenAccess).status == .unauthorized)
                let afterEnd = try await client.call(.post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: old.stolenRefresh))
                #expect(afterEnd.status == .unauthorized)

                // The app's refresh token rotates into tokens that name its session.
                let rotated = try await client.call(.post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: old.appRefresh))
                #expect(rotated.status == .ok)
                let fresh = try rotated.decode(AuthSessionResponse.self)
                #expect(Tokens.session(of: fresh.accessToken)?.lowercased == old.app)
                #expect(Tokens.session(of: fresh.refreshToken)?.lowercased == old.app)
                #expect(try await client.call(.get, "/v1/me", token: fresh.accessToken).status == .ok)
                #expect(try await client.call(.get, "/v1/me", token: old.appAccess).status == .unauthorized)

                // The old refresh token is now a used one: presented again, the session ends.
                let again = try await client.call(.post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: old.appRefresh))
                #expect(again.status == .unauthorized)
                #expect(try await client.call(.get, "/v1/me", token: fresh.accessToken).status == .unauthorized)
                // The web session was not touched by any of it.
                let still = try await client.call(.get, "/account", headers: [.cookie: "kith_session=\(old.webCookie)"])
                #expect(still.status == .ok)
            }
        } catch {
            await scratch?.drop()
            throw error
        }
        await scratch?.drop()
    }

    /// The database as version 10 left it: Ada, an app session, a web session, and an app session
    /// whose first refresh token was exchanged.
    private static func writeVersion10(_ location: DatabaseLocation, _ old: OldTokens, now: Int64) async throws {
        var logger = Logger(label: "kith-test-upgrade")
        logger.logLevel = .warning
        let database = try await KithDatabase.open(location, logger: logger, migrate: false)
        do {
            try await Migrator(database: database, clock: .system, migrations: Migrations.all.filter { $0.version <= 10 })
                .migrate()
            try await database.transaction { sql in
                try await sql.raw(
                    """
                    INSERT INTO users (id, email, password_hash, created_at, password_changed_at)
                    VALUES (\(bind: old.userID), 'ada@example.com', '$2b$04$notUsedHere', \(bind: now), \(bind: now))
                    """
                ).run()
                let hour = now + 3_600_000
                let sessions: [(String, String, String, String?)] = [
                    (old.app, "app", old.appAccess, old.appRefresh), (old.web, "web", old.webCookie, nil),
                    (old.stolen, "app", old.stolenAccess, old.stolenRefresh),
                ]
                for (id, kind, access, refresh) in sessions {
                    try await sql.raw(
                        """
                        INSERT INTO sessions (id, user_id, kind, access_hash, access_expires_at, refresh_hash,
                                              refresh_expires_at, created_at, last_used_at)
                        VALUES (\(bind: id), \(bind: old.userID), \(bind: kind), \(bind: Tokens.hash(access)), \(bind: hour),
                                \(bind: refresh.map(Tokens.hash)), \(bind: refresh.map { _ in hour }), \(bind: now), \(bind: now))
                        """
                    ).run()
                }
                try await sql.raw(
                    """
                    INSERT INTO used_refresh_tokens (token_hash, session_id, used_at)
                    VALUES (\(bind: Tokens.hash(old.stolenUsed)), \(bind: old.stolen), \(bind: now))
                    """
                ).run()
            }
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }
}
