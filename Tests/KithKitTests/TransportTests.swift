import Foundation
import KithKit
import KithTestSupport
import Testing

/// URLSessionTransport turns network failures into the two errors apps handle.
@Suite("URLSessionTransport")
struct TransportTests {
    @Test("nothing listening: offline")
    func connectionRefused() async throws {
        let port = try closedLoopbackPort()
        let transport = URLSessionTransport(timeout: 5)
        await #expect(throws: KithError.offline) {
            _ = try await transport.send(HTTPExchangeRequest(method: "GET", url: URL(string: "http://127.0.0.1:\(port)/healthz")!))
        }
    }

    @Test("a server that never answers: timeout")
    func timeout() async throws {
        // Connections complete in the kernel's backlog, but nobody reads or answers them.
        let listener = try SilentLoopbackListener()
        defer { listener.close() }
        // Whole seconds: FoundationNetworking on Linux gives up at once on a sub-second timeout.
        let transport = URLSessionTransport(timeout: 1)
        let started = ContinuousClock.now
        await #expect(throws: KithError.timeout) {
            _ = try await transport.send(
                HTTPExchangeRequest(method: "GET", url: URL(string: "http://127.0.0.1:\(listener.port)/healthz")!))
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(900), "gave up after \(elapsed), before the timeout")
        #expect(elapsed < .seconds(10))
    }
}
