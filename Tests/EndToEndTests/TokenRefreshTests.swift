import Foundation
import KithCore
import KithKit
import KithTestSupport
import Testing

/// Access tokens live an hour; KithKit refreshes them without the app noticing.
@Suite("Transparent token refresh")
struct TokenRefreshTests {
    @Test("a client whose clock says the access token expired refreshes before the request")
    func clientSideExpiry() async throws {
        try await LiveServer.run { server in
            let store = InMemorySessionStore()
            let user = try await server.client(store: store).signUp(email: uniqueEmail("ahead"), password: "password one")
            let before = try #require(try store.load())

            // Two hours later on the device; the server's clock moves on too.
            server.clock.advance(by: 2 * 3600)
            let later = server.client(store: store, now: { Date().addingTimeInterval(2 * 3600) })
            #expect(try await later.me() == user)

            let after = try #require(try store.load())
            #expect(after.accessToken != before.accessToken)
            #expect(after.refreshToken != before.refreshToken)
            #expect(after.accessExpiresAt > Date().addingTimeInterval(2 * 3600 + 3000))
            // The old refresh token is spent: using it again is refused (and revokes the session).
            let stale = await expectKithError {
                try await server.client(store: InMemorySessionStore(before), now: { Date().addingTimeInterval(2 * 3600) })
                    .me()
            }
            #expect(stale == .sessionExpired)
        }
    }

    @Test("an access token the server says expired is refreshed once and the request retried")
    func serverSideExpiry() async throws {
        try await LiveServer.run { server in
            let store = InMemorySessionStore()
            let client = server.client(store: store)
            let user = try await client.signUp(email: uniqueEmail("expired"), password: "password one")
            let before = try #require(try store.load())

            // The device's clock still says the token is good; the server's says it is 61 minutes old.
            server.clock.advance(by: 61 * 60)
            #expect(try await client.me() == user)
            let after = try #require(try store.load())
            #expect(after.accessToken != before.accessToken)
            #expect(after.refreshToken != before.refreshToken)
            // And the new pair keeps working.
            #expect(try await client.personalTokens().isEmpty)
            #expect(try store.load() == after, "no further refresh while the new token is valid")
        }
    }

    @Test("concurrent requests after expiry share one refresh", arguments: ["device clock", "server clock"])
    func concurrentRequestsShareOneRefresh(whoseClock: String) async throws {
        try await LiveServer.run { server in
            let store = InMemorySessionStore()
            let user = try await server.client(store: store).signUp(email: uniqueEmail("burst"), password: "password one")
            let before = try #require(try store.load())

            server.clock.advance(by: 61 * 60)
            let offset: TimeInterval = whoseClock == "device clock" ? 61 * 60 : 0
            let client = server.client(store: store, now: { Date().addingTimeInterval(offset) })
            // If each request refreshed on its own, the second use of the one refresh token would
            // revoke the session and a request would fail.
            async let first = client.me()
            async let second = client.me()
            async let third = client.personalTokens()
            let (a, b, tokens) = try await (first, second, third)
            #expect(a == user)
            #expect(b == user)
            #expect(tokens.isEmpty)
            let after = try #require(try store.load())
            #expect(after.refreshToken != before.refreshToken)
            #expect(try await client.me() == user, "the session survived the burst")
        }
    }

    @Test("a session ended on the server surfaces as sessionExpired and is forgotten")
    func revokedSession() async throws {
        try await LiveServer.run { server in
            let storeA = InMemorySessionStore()
            let deviceA = server.client(store: storeA)
            try await deviceA.signUp(email: uniqueEmail("revoked"), password: "password one")
            let copied = try #require(try storeA.load())
            try await deviceA.signOut()

            // Device B holds a copy of A's session, which the server ended.
            let storeB = InMemorySessionStore(copied)
            let deviceB = server.client(store: storeB)
            let ended = Locked<[StoredSession?]>([])
            await deviceB.observeSession { session in ended.withLock { $0.append(session) } }
            let error = await expectKithError { try await deviceB.me() }
            #expect(error == .sessionExpired)
            #expect(error?.userMessage == "Your session expired. Please sign in again.")
            #expect(error?.isRetryable == false)
            #expect(try storeB.load() == nil, "the dead session is cleared from the device")
            #expect(ended.value == [nil], "observers hear that the session ended")
            let next = await expectKithError { try await deviceB.me() }
            #expect(next == .notSignedIn)
        }
    }
}
