import Foundation
import Hummingbird
import HummingbirdTesting
import KithServer
import KithTestSupport
import Logging
import Testing

/// A Kith server in this process, listening on a free loopback port for one test: SQLite in a
/// temporary directory, bcrypt at its lowest cost, no rate limit on `/api`.
struct TestServer: Sendable {
    let url: URL
    let config: ServerConfig
    /// The running server, for a test to set what no command sets (an account's web-page settings).
    let app: KithServerApp

    var outbox: Outbox { Outbox(directory: config.outboxDirectory) }

    /// Runs `body` while the server listens, then stops it. Its data goes in `data`, else in a
    /// temporary directory removed afterwards; `configure` changes the rest (a clock, the job runner).
    static func run(
        data given: URL? = nil, configure: (inout ServerConfig) -> Void = { _ in },
        _ body: @Sendable (TestServer) async throws -> Void
    ) async throws {
        let data = try given ?? makeTemporaryDirectory("kith-cli-data")
        defer { if given == nil { try? FileManager.default.removeItem(at: data) } }
        var config = ServerConfig()
        config.dataDirectory = data.path
        config.host = "127.0.0.1"
        config.port = 0
        config.accounts.bcryptCost = 4
        config.ids = .sequential()
        config.monica.rateLimitPerMinute = 100_000
        // Never OpenStreetMap's public geocoder from a test: a test that locates addresses names its stand-in.
        config.geocoder = nil
        configure(&config)
        var logger = Logger(label: "kith-cli-test")
        logger.logLevel = .critical
        let app = try await buildApplication(config, logger: logger)
        let finalConfig = config
        do {
            try await app.application.test(.live) { client in
                let port = try #require(client.port, "the live test server has no port")
                try await body(
                    TestServer(url: URL(string: "http://127.0.0.1:\(port)")!, config: finalConfig, app: app))
            }
        } catch {
            await app.database.close()
            throw error
        }
        await app.database.close()
    }
}
