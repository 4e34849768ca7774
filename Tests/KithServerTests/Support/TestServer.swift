import Foundation
import Hummingbird
import HummingbirdTesting
import KithCore
import KithServer
import KithTestSupport
import Logging
import NIOCore
import Testing

/// A server built for one test: its own SQLite file or PostgreSQL database, a clock the test
/// moves, fixed ids (`IdentifierSource.sequential`), and bcrypt at its lowest cost.
struct TestServer: Sendable {
    let app: KithServerApp
    let clock: TestClock
    let config: ServerConfig
    private let cleanup: @Sendable () async throws -> Void

    /// Builds the server. `sharedDatabaseURL` puts it on another test server's PostgreSQL database
    /// (that server's cleanup drops it), making its ids as server 1 so they never meet the first
    /// one's; otherwise it gets its own.
    static func make(
        _ engine: Engine, sharedDatabaseURL: String? = nil, configure: (inout ServerConfig) -> Void = { _ in }
    ) async throws -> TestServer {
        let clock = TestClock()
        var config = ServerConfig()
        config.dataDirectory = try makeTemporaryDirectory("kith-test").path
        config.port = 0
        config.clock = clock.clock
        config.ids = .sequential(server: sharedDatabaseURL == nil ? 0 : 1)
        config.accounts.bcryptCost = 4
        config.publicURL = "https://kith.example"
        // Never OpenStreetMap's public geocoder from a test: a test that locates addresses names its stand-in.
        config.geocoder = nil
        let scratch = sharedDatabaseURL == nil ? try await PostgresScratch.create(for: engine) : nil
        config.databaseURL = sharedDatabaseURL ?? scratch?.url
        configure(&config)
        var logger = Logger(label: "kith-test")
        logger.logLevel = .warning
        let app = try await buildApplication(config, logger: logger)
        let dataDirectory = config.dataDirectory
        return TestServer(app: app, clock: clock, config: config) { [scratch] in
            await app.database.close()
            await scratch?.drop()
            try? FileManager.default.removeItem(atPath: dataDirectory)
        }
    }

    /// Runs `body` against the router (no socket), then releases the storage.
    static func withRouter(
        _ engine: Engine, sharedDatabaseURL: String? = nil, configure: (inout ServerConfig) -> Void = { _ in },
        _ body: @escaping @Sendable (TestServer, any TestClientProtocol) async throws -> Void
    ) async throws {
        let server = try await make(engine, sharedDatabaseURL: sharedDatabaseURL, configure: configure)
        do {
            try await server.app.application.test(.router) { client in try await body(server, client) }
        } catch {
            try await server.cleanup()
            throw error
        }
        try await server.cleanup()
    }

    /// Runs `body` against the server listening on a free loopback port (the port and an HTTP client
    /// to it are handed in), then shuts the server down gracefully and releases the storage.
    static func withLiveServer(
        _ engine: Engine, sharedDatabaseURL: String? = nil, configure: (inout ServerConfig) -> Void = { _ in },
        _ body: @escaping @Sendable (TestServer, Int, any TestClientProtocol) async throws -> Void
    ) async throws {
        let server = try await make(engine, sharedDatabaseURL: sharedDatabaseURL, configure: configure)
        do {
            try await server.app.application.test(.live) { client in
                let port = try #require(client.port, "the live test server has no port")
                try await body(server, port, client)
            }
        } catch {
            try await server.cleanup()
            throw error
        }
        try await server.cleanup()
    }
}
