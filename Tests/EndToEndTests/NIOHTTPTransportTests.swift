import Foundation
import KithCore
import KithKit
import KithKitNIO
import KithTestSupport
import Testing

/// `NIOHTTPTransport`, what the command line sends its HTTP with: the same answers and the same two
/// failures as `URLSessionTransport`, against a real server and against sockets that misbehave.
@Suite("HTTP over SwiftNIO")
struct NIOHTTPTransportTests {
    @Test func aDeviceSignsUpPushesAndPullsThroughIt() async throws {
        try await LiveServer.run(.sqlite, configure: { $0.entities = EntityCatalog([LiveTransportTests.note]) }) { server in
            let client = KithClient(serverURL: server.url, store: InMemorySessionStore(), transport: NIOHTTPTransport(timeout: 30))
            let user = try await client.signUp(email: uniqueEmail("nio-http"), password: "long enough password")
            let session = try #require(try await client.storedSession())
            #expect(session.user.id == user.id)
            let seq = try await LiveTransportTests.pushNote(client, session)
            #expect(seq > 0)

            // A refusal keeps its status and body: the client reads the server's error from it.
            let wrong = KithClient(serverURL: server.url, store: InMemorySessionStore(), transport: NIOHTTPTransport(timeout: 30))
            let refused = await expectKithError {
                _ = try await wrong.signIn(email: session.user.email, password: "not the password at all")
            }
            guard case .server(let status, let detail)? = refused else {
                Issue.record("expected the server's refusal, got \(String(describing: refused))")
                return
            }
            #expect(status == 401)
            #expect(detail.code == "invalid_credentials")
        }
    }

    @Test func nothingListeningIsOfflineAtOnce() async throws {
        let port = try closedLoopbackPort()
        let started = ContinuousClock.now
        await #expect(throws: KithError.offline) {
            _ = try await NIOHTTPTransport(timeout: 20).send(
                HTTPExchangeRequest(method: "GET", url: URL(string: "http://127.0.0.1:\(port)/healthz")!))
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .seconds(10), "a refused connection is told, not retried until the timeout (\(elapsed))")
    }

    @Test func aServerThatNeverAnswersIsATimeout() async throws {
        let listener = try SilentLoopbackListener()
        defer { listener.close() }
        let started = ContinuousClock.now
        await #expect(throws: KithError.timeout) {
            _ = try await NIOHTTPTransport(timeout: 1).send(
                HTTPExchangeRequest(method: "GET", url: URL(string: "http://127.0.0.1:\(listener.port)/healthz")!))
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(900), "gave up after \(elapsed), before the timeout")
        #expect(elapsed < .seconds(10))
    }
}
