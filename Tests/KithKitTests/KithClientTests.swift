import Foundation
import KithCore
import KithKit
import KithTestSupport
import Synchronization
import Testing

/// KithClient against a scripted transport: what it sends, what it keeps, how it refreshes.
@Suite("KithClient with a fake transport")
struct KithClientTests {
    @Test("signing in posts the credentials as JSON and keeps the session with its expiry")
    func signInSendsJSON() async throws {
        let transport = FakeTransport.replaying(Fixture.authSession(access: "kat_1", refresh: "krt_1", expiresIn: 3600))
        let store = InMemorySessionStore()
        let user = try await Fixture.client(transport, store: store).signIn(email: "ada@example.com", password: "pass word")

        #expect(user == Fixture.user)
        let request = try #require(transport.log.requests.first)
        #expect(transport.log.lines == ["POST /v1/auth/login"])
        #expect(request.url.absoluteString == "https://kith.example/v1/auth/login")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("Accept") == "application/json")
        #expect(request.header("Authorization") == nil, "credentials go in the body, not a header")
        let body = try request.decodedBody(CredentialsRequest.self)
        #expect(body.email == "ada@example.com")
        #expect(body.password == "pass word")

        let saved = try #require(try store.load())
        #expect(saved.accessToken == "kat_1")
        #expect(saved.refreshToken == "krt_1")
        #expect(saved.serverURL == Fixture.serverURL)
        #expect(saved.accessExpiresAt == Fixture.now.addingTimeInterval(3600))
    }

    @Test("the device token of a sign-in is kept across sign-out and sent with the next sign-in to that account")
    func deviceTokensAreRemembered() async throws {
        func answer(_ device: String) -> HTTPExchangeResponse {
            Fixture.json(
                AuthSessionResponse(
                    user: Fixture.user, accessToken: "kat_1", refreshToken: "krt_1", expiresIn: 3600, deviceToken: device))
        }
        let transport = FakeTransport.replaying(answer("kdv_first"), Fixture.noContent, answer("kdv_first"))
        let devices = InMemorySecretStore<DeviceTokens>()
        let client = KithClient(
            serverURL: Fixture.serverURL, store: InMemorySessionStore(), deviceTokens: devices, transport: transport,
            now: { Fixture.now })
        try await client.signIn(email: "Ada@Example.com ", password: "pass word")
        #expect(try devices.load()?.byEmail == ["ada@example.com": "kdv_first"])
        try await client.signOut()
        #expect(try devices.load()?.byEmail["ada@example.com"] == "kdv_first", "signing out keeps it")
        try await client.signIn(email: "ada@example.com", password: "pass word")
        let bodies = try transport.log.requests.filter { $0.url.path == "/v1/auth/login" }
            .map { try $0.decodedBody(CredentialsRequest.self) }
        #expect(bodies.map(\.deviceToken) == [nil, "kdv_first"])
    }

    @Test("authorized requests carry the access token as a bearer token")
    func bearerToken() async throws {
        let token = PersonalTokenDTO(id: UUID(), name: "ci", token: "kpt_secret", createdAt: Fixture.now)
        let transport = FakeTransport.replaying(Fixture.json(Fixture.user), Fixture.json(201, token), Fixture.noContent)
        let client = Fixture.client(transport, store: InMemorySessionStore(Fixture.session()))

        #expect(try await client.me() == Fixture.user)
        #expect(try await client.createPersonalToken(name: "ci") == token)
        let id = UUID(uuidString: "A1B2C3D4-0000-4000-8000-00000000ABCD")!
        try await client.revokePersonalToken(id: id)

        #expect(transport.log.lines == ["GET /v1/me", "POST /v1/tokens", "DELETE /v1/tokens/a1b2c3d4-0000-4000-8000-00000000abcd"])
        for request in transport.log.requests {
            #expect(request.header("Authorization") == "Bearer kat_old")
        }
        let requests = transport.log.requests
        #expect(requests[0].body == nil, "a GET has no body")
        #expect(requests[0].header("Content-Type") == nil)
        #expect(requests[1].header("Content-Type") == "application/json")
        #expect(try requests[1].decodedBody(CreateTokenRequest.self).name == "ci")
    }

    @Test("a server URL with a path keeps it")
    func serverURLWithPath() async throws {
        let transport = FakeTransport.replaying(Fixture.json(Fixture.user))
        let client = KithClient(
            serverURL: URL(string: "https://example.com/kith")!, store: InMemorySessionStore(Fixture.session()),
            transport: transport, now: { Fixture.now })
        _ = try await client.me()
        #expect(transport.log.requests.first?.url.absoluteString == "https://example.com/kith/v1/me")
    }

    @Test("an access token about to expire is refreshed before the request")
    func refreshBeforeRequest() async throws {
        let transport = FakeTransport.replaying(
            Fixture.authSession(access: "kat_new", refresh: "krt_new"), Fixture.json(Fixture.user))
        let store = InMemorySessionStore(Fixture.session(expiresAt: Fixture.now.addingTimeInterval(10)))
        #expect(try await Fixture.client(transport, store: store).me() == Fixture.user)

        #expect(transport.log.lines == ["POST /v1/auth/refresh", "GET /v1/me"])
        #expect(try transport.log.requests[0].decodedBody(RefreshRequest.self).refreshToken == "krt_old")
        #expect(transport.log.requests[0].header("Authorization") == nil)
        #expect(transport.log.requests[1].header("Authorization") == "Bearer kat_new")
        #expect(try store.load()?.accessToken == "kat_new")
        #expect(try store.load()?.refreshToken == "krt_new")
    }

    @Test("a 401 from the server triggers one refresh and one retry with the new token")
    func refreshOn401() async throws {
        let transport = FakeTransport.replaying(
            Fixture.error(401, .tokenExpired), Fixture.authSession(access: "kat_new", refresh: "krt_new"),
            Fixture.json(Fixture.user))
        let store = InMemorySessionStore(Fixture.session())
        #expect(try await Fixture.client(transport, store: store).me() == Fixture.user)

        #expect(transport.log.lines == ["GET /v1/me", "POST /v1/auth/refresh", "GET /v1/me"])
        #expect(transport.log.requests[0].header("Authorization") == "Bearer kat_old")
        #expect(transport.log.requests[2].header("Authorization") == "Bearer kat_new")
        #expect(try store.load()?.accessToken == "kat_new")
    }

    @Test("a 401 on refresh ends the session: sessionExpired, the store is cleared, observers hear it")
    func refreshRefused() async throws {
        let transport = FakeTransport.replaying(Fixture.error(401, .invalidToken))
        let store = InMemorySessionStore(Fixture.session(expiresAt: Fixture.now.addingTimeInterval(-1)))
        let client = Fixture.client(transport, store: store)
        let heard = Heard()
        await client.observeSession { heard.append($0) }

        let error = await expectKithError { try await client.me() }
        #expect(error == .sessionExpired)
        #expect(try store.load() == nil)
        #expect(heard.sessions == [nil])
        #expect(transport.log.lines == ["POST /v1/auth/refresh"])
        let next = await expectKithError { try await client.me() }
        #expect(next == .notSignedIn, "nothing is sent without a session")
        #expect(transport.log.requests.count == 1)
    }

    @Test("a request still refused after a refresh ends the session")
    func retryRefused() async throws {
        let transport = FakeTransport.replaying(
            Fixture.error(401, .unauthorized), Fixture.authSession(access: "kat_new", refresh: "krt_new"),
            Fixture.error(401, .unauthorized))
        let store = InMemorySessionStore(Fixture.session())
        let error = await expectKithError { try await Fixture.client(transport, store: store).me() }
        #expect(error == .sessionExpired)
        #expect(try store.load() == nil)
    }

    @Test("a refresh that fails for another reason keeps the session for later")
    func refreshFailsTransiently() async throws {
        let transport = FakeTransport.replaying([
            .success(Fixture.error(503, .internalError, "database down")), .failure(.offline),
        ])
        let session = Fixture.session(expiresAt: Fixture.now.addingTimeInterval(-1))
        let store = InMemorySessionStore(session)
        let client = Fixture.client(transport, store: store)

        let unavailable = await expectKithError { try await client.me() }
        #expect(unavailable?.isRetryable == true)
        #expect(unavailable?.userMessage == "The server is having trouble. Please try again.")
        #expect(try store.load() == session)
        let offline = await expectKithError { try await client.me() }
        #expect(offline == .offline)
        #expect(try store.load() == session)
    }

    @Test("error answers that are not the wire shape, and unreadable successes")
    func unreadableAnswers() async throws {
        let html = HTTPExchangeResponse(status: 502, headers: ["Content-Type": "text/html"], body: Data("<h1>Bad Gateway</h1>".utf8))
        let garbage = HTTPExchangeResponse(status: 200, headers: [:], body: Data("not json".utf8))
        let transport = FakeTransport.replaying(html, garbage)
        let client = Fixture.client(transport, store: InMemorySessionStore(Fixture.session()))

        let gateway = await expectKithError { try await client.me() }
        guard case .server(502, let detail) = gateway else {
            Issue.record("expected a 502 server error, got \(String(describing: gateway))")
            return
        }
        #expect(detail.code == "http_502")
        #expect(gateway?.userMessage == "The server is having trouble. Please try again.")
        #expect(gateway?.isRetryable == true)

        let unreadable = await expectKithError { try await client.me() }
        guard case .invalidResponse = unreadable else {
            Issue.record("expected invalidResponse, got \(String(describing: unreadable))")
            return
        }
        #expect(unreadable?.userMessage == "The server sent an answer this app does not understand.")
    }

    @Test("signing out tells the server and forgets the session, even offline")
    func signOut() async throws {
        let online = FakeTransport.replaying(Fixture.noContent)
        let store = InMemorySessionStore(Fixture.session())
        try await Fixture.client(online, store: store).signOut()
        #expect(online.log.lines == ["POST /v1/auth/logout"])
        #expect(online.log.requests.first?.header("Authorization") == "Bearer kat_old")
        #expect(try store.load() == nil)

        let offline = FakeTransport.replaying([.failure(.offline)])
        let offlineStore = InMemorySessionStore(Fixture.session())
        try await Fixture.client(offline, store: offlineStore).signOut()
        #expect(try offlineStore.load() == nil)
    }

    @Test("local checks refuse bad input without a request")
    func localChecks() async throws {
        let transport = FakeTransport.replaying()
        let client = Fixture.client(transport, store: InMemorySessionStore(Fixture.session()))
        let email = await expectKithError { try await client.signUp(email: "not-an-email", password: "long enough") }
        #expect(email == .server(status: 422, APIErrorDetail(.invalidEmail, "Enter a valid email address, like name@example.com.", field: "email")))
        let password = await expectKithError { try await client.signUp(email: "a@example.com", password: "short") }
        #expect(password?.code == .weakPassword)
        let newPassword = await expectKithError { try await client.changePassword(current: "whatever", new: "short") }
        #expect(newPassword?.field == "newPassword")
        let tokenName = await expectKithError { try await client.createPersonalToken(name: "   ") }
        #expect(tokenName?.code == .validationFailed)
        #expect(tokenName?.field == "name")
        #expect(transport.log.requests.isEmpty)
    }

    @Test("a wrong current password is a credentials error, not an expired session")
    func wrongCurrentPassword() async throws {
        let transport = FakeTransport.replaying(
            Fixture.error(401, .invalidCredentials, "The current password is incorrect.", field: "currentPassword"),
            // What a client that mistakes this for an expired token would go on to ask for:
            Fixture.authSession(access: "kat_new", refresh: "krt_new"),
            Fixture.error(401, .invalidCredentials, "The current password is incorrect.", field: "currentPassword"))
        let store = InMemorySessionStore(Fixture.session())
        let error = await expectKithError {
            try await Fixture.client(transport, store: store).changePassword(current: "typo", new: "new password")
        }
        #expect(error?.code == .invalidCredentials, "got \(String(describing: error))")
        #expect(error?.userMessage == "The current password is incorrect.")
        #expect(try store.load() != nil, "a typo must not sign the person out")
        #expect(transport.log.lines == ["POST /v1/auth/password"], "no refresh for a wrong password")
    }

    @Test("concurrent requests that find the token expired share one refresh")
    func concurrentRefreshShared() async throws {
        let server = FakeTokenServer(initialAccess: nil)
        let transport = FakeTransport { try await server.handle($0) }
        let store = InMemorySessionStore(Fixture.session(access: "A0", refresh: "R0", expiresAt: Fixture.now.addingTimeInterval(-1)))
        let client = Fixture.client(transport, store: store)

        async let first = client.me()
        async let second = client.me()
        async let third = client.me()
        let users = try await [first, second, third]
        #expect(users.allSatisfy { $0 == Fixture.user })
        #expect(await server.refreshes == 1)
    }

    @Test("requests racing a refresh reuse the new token instead of refreshing again")
    func raceAfterServerSideExpiry() async throws {
        // The device thinks A0 is valid; the server says it expired. The fake server orders events
        // so the second request's 401 arrives after the first request already refreshed and retried.
        let server = FakeTokenServer(initialAccess: nil, orderRace: true)
        let transport = FakeTransport { try await server.handle($0) }
        let store = InMemorySessionStore(Fixture.session(access: "A0", refresh: "R0"))
        let client = Fixture.client(transport, store: store)

        async let first = outcome { try await client.me() }
        async let second = outcome { try await client.me() }
        let (a, b) = await (first, second)
        #expect((try? a.get()) == Fixture.user, "first request: \(a)")
        #expect((try? b.get()) == Fixture.user, "second request: \(b)")
        #expect(try store.load() != nil, "the session survives two requests racing at expiry")
        #expect(await server.refreshes == 1, "one refresh is enough: the second request can use its result")
    }
}

func outcome<Value>(_ body: () async throws -> Value) async -> Result<Value, any Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}

final class Heard: Sendable {
    private let storage = Mutex<[StoredSession?]>([])
    var sessions: [StoredSession?] { storage.withLock { $0 } }
    func append(_ session: StoredSession?) { storage.withLock { $0.append(session) } }
}

/// A token server in miniature: a refresh token works once and replaces the access token, so only
/// the newest access token is valid. `orderRace` holds answers back to force one interleaving.
actor FakeTokenServer {
    private(set) var refreshes = 0
    private var access: String?
    private var refresh = "R0"
    private let orderRace: Bool
    private var expiredSeen = 0
    private var retrySeen = false

    init(initialAccess: String?, orderRace: Bool = false) {
        self.access = initialAccess
        self.orderRace = orderRace
    }

    func handle(_ request: HTTPExchangeRequest) async throws -> HTTPExchangeResponse {
        switch (request.method, request.url.path) {
        case ("POST", "/v1/auth/refresh"):
            let presented = try request.decodedBody(RefreshRequest.self).refreshToken
            guard presented == refresh else {
                access = nil  // reuse of a refresh token revokes the session
                refresh = "revoked"
                return Fixture.error(401, .invalidToken, "This refresh token was already used.")
            }
            refreshes += 1
            access = "A\(refreshes)"
            refresh = "R\(refreshes)"
            return Fixture.authSession(access: access!, refresh: refresh)
        case ("GET", "/v1/me"):
            let token = request.header("Authorization")?.replacingOccurrences(of: "Bearer ", with: "")
            if orderRace {
                if token == "A0" {
                    expiredSeen += 1
                    // First: wait until both requests went out. Second: wait until the first retried.
                    if expiredSeen == 1 { await waitUntil(seconds: 2) { self.expiredSeen >= 2 } }
                    else { await waitUntil(seconds: 2) { self.retrySeen } }
                } else if token == "A1" {
                    retrySeen = true
                    // Give a needless second refresh the time to happen (and to invalidate A1).
                    await waitUntil(seconds: 0.3) { self.refreshes >= 2 }
                }
            }
            guard let token, token == access else { return Fixture.error(401, .tokenExpired) }
            return Fixture.json(Fixture.user)
        default:
            return Fixture.error(404, .notFound)
        }
    }

    private func waitUntil(seconds: Double, _ condition: () -> Bool) async {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !condition(), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
