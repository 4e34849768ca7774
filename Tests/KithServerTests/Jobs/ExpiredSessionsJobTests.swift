import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Sessions whose tokens can no longer be used are deleted once a day, with the used refresh tokens
/// each refresh left behind; a session still in use stays.
@Suite("Expired sessions job")
struct ExpiredSessionsJobTests {
    @Test(arguments: Engine.available)
    func sessionsThatCanNoLongerBeUsedAreDeletedWithTheirUsedTokens(engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: JobTesting.configure([])) { server, client in
            let today = LocalDate(server.clock.now, in: ExpiredSessionsJob.utc)
            try await eventually { try await JobTesting.status(server, "accounts.expired-sessions \(today)") == .done }

            // A phone that refreshed once and then went quiet, a phone still in use, a browser.
            let quiet = try await client.signUp("ada@example.com")
            let quietNow = try await client.call(.post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: quiet.refreshToken))
                .decode(AuthSessionResponse.self)
            var busy = try await client.logIn("ada@example.com", "correct horse").decode(AuthSessionResponse.self)
            var browser = WebSessionTests.Browser()
            _ = try await browser.get(client, "/signin")
            #expect(try await browser.post(client, "/signin", form: ["email": "ada@example.com", "password": "correct horse"]).status == .found)
            let ids = try [quiet.accessToken, busy.accessToken, #require(browser.cookies["kith_session"])].map {
                try #require(Tokens.session(of: $0)?.lowercased)
            }
            #expect(try await Self.sessions(server) == Set(ids))

            // 59 days on the busy phone refreshes; 61 days on, the quiet phone's refresh token (60
            // days) and the browser's cookie (30 days) have expired. Tomorrow's run is due from the
            // first of those days on: it runs then (and enqueues the next day's) before the busy
            // phone refreshes, so the run that judges day 61 is the one it enqueued.
            server.clock.advance(by: 59 * 86_400)
            try await eventually {
                try await JobTesting.status(server, "accounts.expired-sessions \(today.adding(days: 1))") == .done
            }
            busy = try await client.call(.post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: busy.refreshToken))
                .decode(AuthSessionResponse.self)
            server.clock.advance(by: 2 * 86_400)
            try await eventually {
                try await JobTesting.status(server, "accounts.expired-sessions \(today.adding(days: 60))") == .done
            }
            #expect(try await Self.sessions(server) == [ids[1]])
            #expect(try await Self.usedTokens(server) == [ids[1]], "the quiet phone's used token went with its session")

            let refused = try await client.call(.post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: quietNow.refreshToken))
            #expect(refused.status == .unauthorized)
            let refreshed = try await client.call(.post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: busy.refreshToken))
            #expect(refreshed.status == .ok)
            // The chain goes on: the next day's run is waiting.
            let next = LocalDate(server.clock.now, in: ExpiredSessionsJob.utc).adding(days: 1)
            #expect(try await JobTesting.status(server, "accounts.expired-sessions \(next)") == .pending)
        }
    }

    private static func sessions(_ server: TestServer) async throws -> Set<String> {
        try await server.app.database.run { sql in
            Set(try await sql.raw("SELECT id FROM sessions").all(decodingColumn: "id", as: String.self))
        }
    }

    /// The sessions that have used refresh tokens.
    private static func usedTokens(_ server: TestServer) async throws -> Set<String> {
        try await server.app.database.run { sql in
            Set(try await sql.raw("SELECT session_id FROM used_refresh_tokens").all(decodingColumn: "session_id", as: String.self))
        }
    }
}
