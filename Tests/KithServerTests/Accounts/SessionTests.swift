import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

@Suite("Sessions and tokens")
struct SessionTests {
    @Test(arguments: Engine.available)
    func refreshTokensRotateAndAReusedOneRevokesTheSession(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let first = try await client.signUp("ada@example.com")
            let refreshed = try await client.call(.post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: first.refreshToken))
            #expect(refreshed.status == .ok)
            let second = try refreshed.decode(AuthSessionResponse.self)
            #expect(second.refreshToken != first.refreshToken)
            #expect(second.accessToken != first.accessToken)
            #expect(second.user == first.user)
            #expect(try await client.call(.get, "/v1/me", token: second.accessToken).status == .ok)
            // The replaced access token no longer works.
            #expect(try await client.call(.get, "/v1/me", token: first.accessToken).status == .unauthorized)

            // Someone replays the first refresh token: it was stolen, so the whole session ends.
            let replay = try await client.call(.post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: first.refreshToken))
            #expect(replay.status == .unauthorized)
            #expect(try await client.call(.get, "/v1/me", token: second.accessToken).status == .unauthorized)
            let afterRevoke = try await client.call(.post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: second.refreshToken))
            #expect(afterRevoke.status == .unauthorized)

            let unknown = try await client.call(.post, "/v1/auth/refresh", json: #"{"refreshToken":"krt_nope"}"#)
            #expect(unknown.status == .unauthorized)
        }
    }

    /// A token names its session (decision 107), so anyone holding one knows the session's id. A
    /// token with that id and another secret opens nothing, and ends nothing either: it is a
    /// guess, not a copy of a token that was used.
    @Test(arguments: Engine.available)
    func aSessionsIdWithAnotherSecretIsRefusedAndEndsNothing(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let ada = try await client.signUp("ada@example.com")
            let id = try #require(Tokens.session(of: ada.accessToken))
            #expect(Tokens.session(of: ada.refreshToken) == id)
            let guessedAccess = Tokens.generate(.access, session: id)
            let refused = try await client.call(.get, "/v1/me", token: guessedAccess)
            #expect(refused.status == .unauthorized)
            #expect(refused.error?.code == "unauthorized")
            let guessedRefresh = try await client.call(
                .post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: Tokens.generate(.refresh, session: id)))
            #expect(guessedRefresh.status == .unauthorized)
            #expect(guessedRefresh.error?.code == "invalid_token")
            // Another session's id with this one's secret part: refused too.
            let bob = try await client.signUp("bob@example.com")
            let bobID = try #require(Tokens.session(of: bob.accessToken))
            var spliced = Array(try #require(Base64URL.decode(ada.accessToken.dropFirst(4))))
            withUnsafeBytes(of: bobID.uuid) { spliced.replaceSubrange(0..<16, with: $0) }
            #expect(try await client.call(.get, "/v1/me", token: "kat_" + Base64URL.encode(spliced)).status == .unauthorized)

            #expect(try await client.call(.get, "/v1/me", token: ada.accessToken).status == .ok)
            let refreshed = try await client.call(.post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: ada.refreshToken))
            #expect(refreshed.status == .ok)
            #expect(Tokens.session(of: try refreshed.decode(AuthSessionResponse.self).accessToken) == id)
        }
    }

    @Test(arguments: Engine.available)
    func accessTokensExpireAfterOneHour(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let session = try await client.signUp("ada@example.com")
            server.clock.advance(by: 3599)
            #expect(try await client.call(.get, "/v1/me", token: session.accessToken).status == .ok)
            server.clock.advance(by: 2)
            let expired = try await client.call(.get, "/v1/me", token: session.accessToken)
            #expect(expired.status == .unauthorized)
            #expect(expired.error?.code == "token_expired")
            let unknown = try await client.call(.get, "/v1/me", token: "kat_unknown")
            #expect(unknown.error?.code == "unauthorized")
            let missing = try await client.call(.get, "/v1/me")
            #expect(missing.status == .unauthorized)
            #expect(missing.error?.code == "unauthorized")
            let malformed = try await client.call(.get, "/v1/me", headers: [.authorization: "Basic YTpi"])
            #expect(malformed.error?.code == "unauthorized")
            // The refresh token outlives the access token.
            let refreshed = try await client.call(.post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: session.refreshToken))
            #expect(refreshed.status == .ok)
        }
    }

    @Test(arguments: Engine.available)
    func logoutEndsOnlyThatSession(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let phone = try await client.signUp("ada@example.com")
            let laptop = try await client.logIn("ada@example.com", "correct horse").decode(AuthSessionResponse.self)
            #expect(try await client.call(.post, "/v1/auth/logout", token: phone.accessToken).status == .noContent)
            #expect(try await client.call(.get, "/v1/me", token: phone.accessToken).status == .unauthorized)
            let refresh = try await client.call(.post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: phone.refreshToken))
            #expect(refresh.status == .unauthorized)
            #expect(try await client.call(.get, "/v1/me", token: laptop.accessToken).status == .ok)
            #expect(try await client.call(.post, "/v1/auth/logout").status == .unauthorized)
        }
    }

    @Test(arguments: Engine.available)
    func personalAccessTokensAuthenticateUntilRevoked(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let ada = try await client.signUp("ada@example.com")
            let created = try await client.call(.post, "/v1/tokens", json: #"{"name":"  backup script "}"#, token: ada.accessToken)
            #expect(created.status == .created)
            let token = try created.decode(PersonalTokenDTO.self)
            #expect(token.name == "backup script")
            let secret = try #require(token.token)
            #expect(secret.hasPrefix("kpt_"))

            let me = try await client.call(.get, "/v1/me", token: secret)
            #expect(try me.decode(UserDTO.self).email == "ada@example.com")

            let listed = try await client.call(.get, "/v1/tokens", token: ada.accessToken).decode(PersonalTokenList.self)
            #expect(listed.tokens.map(\.id) == [token.id])
            #expect(listed.tokens[0].token == nil)
            #expect(listed.tokens[0].lastUsedAt != nil)

            // Another account can neither see nor revoke it.
            let bob = try await client.signUp("bob@example.com")
            #expect(try await client.call(.get, "/v1/tokens", token: bob.accessToken).decode(PersonalTokenList.self).tokens.isEmpty)
            let foreign = try await client.call(.delete, "/v1/tokens/\(token.id.uuidString)", token: bob.accessToken)
            #expect(foreign.status == .notFound)
            #expect(try await client.call(.get, "/v1/me", token: secret).status == .ok)

            #expect(try await client.call(.delete, "/v1/tokens/\(token.id.uuidString)", token: ada.accessToken).status == .noContent)
            #expect(try await client.call(.get, "/v1/me", token: secret).status == .unauthorized)
            #expect(try await client.call(.delete, "/v1/tokens/\(token.id.uuidString)", token: ada.accessToken).status == .notFound)

            for bad in [#"{"name":""}"#, #"{"name":"   "}"#, #"{"name":"\#(String(repeating: "n", count: 101))"}"#] {
                let refused = try await client.call(.post, "/v1/tokens", json: bad, token: ada.accessToken)
                #expect(refused.status == .unprocessableContent)
                #expect(refused.error?.field == "name")
            }
            #expect(try await client.call(.get, "/v1/tokens").status == .unauthorized)
        }
    }

    /// Ada, signed up, and the secret of a personal access token she made.
    private static func signUpWithPersonalToken(_ client: some TestClientProtocol, named name: String) async throws
        -> (AuthSessionResponse, String)
    {
        let ada = try await client.signUp("ada@example.com")
        let created = try await client.call(.post, "/v1/tokens", json: #"{"name":"\#(name)"}"#, token: ada.accessToken)
        return (ada, try #require(try created.decode(PersonalTokenDTO.self).token))
    }

    @Test(arguments: Engine.available)
    func lastUsedIsKeptToTheMinute(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let (ada, secret) = try await Self.signUpWithPersonalToken(client, named: "cron")
            func lastUsed() async throws -> Date? {
                try await client.call(.get, "/v1/tokens", token: ada.accessToken).decode(PersonalTokenList.self).tokens[0].lastUsedAt
            }
            #expect(try await lastUsed() == nil)
            _ = try await client.call(.get, "/v1/me", token: secret)
            let first = try #require(try await lastUsed())
            server.clock.advance(by: 30)
            _ = try await client.call(.get, "/v1/me", token: secret)
            #expect(try await lastUsed() == first)
            server.clock.advance(by: 31)
            _ = try await client.call(.get, "/v1/me", token: secret)
            #expect(try await lastUsed() == first.addingTimeInterval(61))
        }
    }

    /// An API client's reads don't queue behind a long write (a big sync push, an import): its
    /// personal access token is looked up on a reader, not on the one writer (issue 18).
    @Test(arguments: Engine.available)
    func aPersonalTokenReadAnswersWhileAWriteIsInProgress(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let (_, secret) = try await Self.signUpWithPersonalToken(client, named: "reader")
            #expect(try await client.call(.get, "/api/contacts", token: secret).status == .ok, "Monica's defaults made")

            let writing = AsyncStream<Void>.makeStream()
            let release = AsyncStream<Void>.makeStream()
            let writer = Task {
                try await server.app.database.transaction { sql in
                    try await sql.raw("UPDATE users SET password_changed_at = password_changed_at").run()
                    writing.continuation.yield()
                    for await _ in release.stream { break }
                }
            }
            for await _ in writing.stream { break }
            // Within the minute, so the token's "last used" needs no write either.
            server.clock.advance(by: 30)
            let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask { try await client.call(.get, "/api/contacts", token: secret).status == .ok }
                group.addTask {
                    try? await Task.sleep(for: .seconds(5))
                    return false
                }
                let first = try await group.next() ?? false
                release.continuation.yield()
                group.cancelAll()
                while (try? await group.next()) != nil {}
                return first
            }
            try await writer.value
            #expect(answered, "the read waited for the write to end")
        }
    }

    @Test(arguments: Engine.available)
    func tokensAreStoredOnlyAsHashes(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let session = try await client.signUp("ada@example.com")
            let pat = try await client.call(.post, "/v1/tokens", json: #"{"name":"x"}"#, token: session.accessToken)
                .decode(PersonalTokenDTO.self)
            let secrets = [session.accessToken, session.refreshToken, pat.token ?? ""]
            let dump = try await server.app.database.run { sql in
                let sessions = try await sql.raw("SELECT access_hash, refresh_hash FROM sessions").all()
                let tokens = try await sql.raw("SELECT token_hash FROM personal_tokens").all()
                let users = try await sql.raw("SELECT password_hash FROM users").all()
                return try sessions.flatMap { [try $0.decode(column: "access_hash", as: String.self), try $0.decode(column: "refresh_hash", as: String.self)] }
                    + tokens.map { try $0.decode(column: "token_hash", as: String.self) }
                    + users.map { try $0.decode(column: "password_hash", as: String.self) }
            }
            for secret in secrets { #expect(!dump.contains(secret)) }
            #expect(dump.contains(Tokens.hash(session.accessToken)))
            #expect(dump.contains { $0.hasPrefix("$2") && !$0.contains("correct horse") })
        }
    }
}
