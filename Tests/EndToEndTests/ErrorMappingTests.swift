import Foundation
import KithCore
import KithKit
import KithTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How failures reach an app: each with a sentence for a person and whether retrying helps.
@Suite("Errors as an app sees them")
struct ErrorMappingTests {
    @Test("a server that can't be reached is offline, retryable, with a plain message")
    func offline() async throws {
        let port = try closedLoopbackPort()
        let store = InMemorySessionStore()
        let client = KithClient(serverURL: URL(string: "http://127.0.0.1:\(port)")!, store: store)
        let error = await expectKithError { try await client.signIn(email: "someone@example.com", password: "password") }
        #expect(error == .offline)
        #expect(error?.userMessage == "Cannot connect. Check your internet and try again.")
        #expect(error?.isRetryable == true)
        #expect(try store.load() == nil)
    }

    @Test("being offline keeps the stored session: the device is still signed in")
    func offlineKeepsSession() async throws {
        let port = try closedLoopbackPort()
        let url = URL(string: "http://127.0.0.1:\(port)")!
        let session = StoredSession(
            serverURL: url, user: UserDTO(id: UUID(), email: "a@example.com", createdAt: Date()), accessToken: "kat_x",
            refreshToken: "krt_x", accessExpiresAt: Date().addingTimeInterval(-60))
        let store = InMemorySessionStore(session)
        let error = await expectKithError { try await KithClient(serverURL: url, store: store).me() }
        #expect(error == .offline)
        #expect(try store.load() == session, "a failed refresh because of the network must not sign out")
    }

    @Test("an invalid email is refused before a round trip, the same way the server refuses it")
    func invalidEmail() async throws {
        try await LiveServer.run { server in
            // KithKit checks locally first.
            let error = await expectKithError { try await server.client().signUp(email: "not-an-email", password: "password one") }
            guard case .server(let status, let detail) = error else {
                Issue.record("expected a server-shaped error, got \(String(describing: error))")
                return
            }
            #expect(status == 422)
            #expect(detail.code == ErrorCode.invalidEmail.rawValue)
            #expect(detail.field == "email")
            #expect(error?.userMessage == "Enter a valid email address, like name@example.com.")
            #expect(error?.isRetryable == false)

            // The server, asked directly, answers with the same wire error.
            let response = try await URLSessionTransport(timeout: 30).send(
                HTTPExchangeRequest(
                    method: "POST", url: server.url.appendingPathComponent("v1/auth/signup"),
                    headers: ["Content-Type": "application/json", "Accept": "application/json"],
                    body: try WireCoding.encoder().encode(CredentialsRequest(email: "not-an-email", password: "password one"))))
            #expect(response.status == 422)
            #expect(response.header("content-type")?.hasPrefix("application/json") == true)
            let body = try WireCoding.decoder().decode(APIErrorBody.self, from: response.body)
            #expect(body.error == detail)
        }
    }

    @Test("a weak password is refused with the server's wording, on the newPassword field for changes")
    func weakPassword() async throws {
        try await LiveServer.run { server in
            let client = server.client()
            let signUp = await expectKithError { try await client.signUp(email: uniqueEmail("weak"), password: "short") }
            #expect(signUp?.code == .weakPassword)
            #expect(signUp?.field == "password")

            try await client.signUp(email: uniqueEmail("weak"), password: "long enough")
            let change = await expectKithError { try await client.changePassword(current: "long enough", new: "short") }
            #expect(change?.code == .weakPassword)
            #expect(change?.field == "newPassword")

            // The server enforces the same rule when asked directly.
            let response = try await URLSessionTransport(timeout: 30).send(
                HTTPExchangeRequest(
                    method: "POST", url: server.url.appendingPathComponent("v1/auth/signup"),
                    headers: ["Content-Type": "application/json"],
                    body: try WireCoding.encoder().encode(CredentialsRequest(email: uniqueEmail(), password: "short"))))
            #expect(response.status == 422)
            let body = try WireCoding.decoder().decode(APIErrorBody.self, from: response.body)
            #expect(body.error == signUp.flatMap { if case .server(_, let detail) = $0 { detail } else { nil } })
        }
    }

    @Test("too many wrong passwords: 429 with the server's message, retryable later")
    func tooManyAttempts() async throws {
        try await LiveServer.run { server in
            let email = uniqueEmail("locked")
            try await server.client().signUp(email: email, password: "the real password")
            let client = server.client()
            for _ in 0..<5 {
                let wrong = await expectKithError { try await client.signIn(email: email, password: "wrong password") }
                #expect(wrong?.code == .invalidCredentials)
            }
            let locked = await expectKithError { try await client.signIn(email: email, password: "the real password") }
            guard case .server(let status, _) = locked else {
                Issue.record("expected 429, got \(String(describing: locked))")
                return
            }
            #expect(status == 429)
            #expect(locked?.code == .tooManyAttempts)
            #expect(locked?.isRetryable == true)
            #expect(locked?.userMessage.hasPrefix("Too many failed sign-in attempts.") == true)

            // After the window the right password works again.
            server.clock.advance(by: 16 * 60)
            #expect(try await client.signIn(email: email, password: "the real password").email == email)
        }
    }
}
