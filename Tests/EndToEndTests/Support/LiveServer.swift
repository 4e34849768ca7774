import Foundation
import Hummingbird
import HummingbirdTesting
import KithCore
import KithKit
import KithServer
import KithTestSupport
import Logging
import Testing

/// Server logs would bury test output; only critical lines get through.
let quietLogger: Logger = {
    var logger = Logger(label: "kith-e2e")
    logger.logLevel = .critical
    return logger
}()

/// A Kith server listening on a loopback port for the duration of one test.
struct LiveServer: Sendable {
    let url: URL
    let port: Int
    let clock: TestClock
    let config: ServerConfig
    let database: KithDatabase
    let engine: Engine
    let app: KithServerApp

    var outbox: Outbox { Outbox(directory: config.outboxDirectory) }

    /// A device talking to this server over real HTTP. Its timeout is generous: on a loaded 2-core
    /// CI machine a request can wait seconds for a thread, and only the timeout test means to time out.
    func client(store: any SessionStore = InMemorySessionStore(), now: @escaping @Sendable () -> Date = { Date() })
        -> KithClient
    {
        KithClient(serverURL: url, store: store, transport: URLSessionTransport(timeout: 30), now: now)
    }

    /// Builds the server on `engine`, has it listen on 127.0.0.1 with a free port, runs `body`, then
    /// shuts it down and removes its data (directory, PostgreSQL database).
    static func run(
        _ engine: Engine = .sqlite, configure: (inout ServerConfig) -> Void = { _ in },
        _ body: @Sendable (LiveServer) async throws -> Void
    ) async throws {
        // Real time: the clients judge token expiry by the wall clock.
        let clock = TestClock(Date())
        let dataDirectory = try makeTemporaryDirectory("kith-e2e-data")
        var config = ServerConfig()
        config.dataDirectory = dataDirectory.path
        config.host = "127.0.0.1"
        config.port = 0
        config.accounts.bcryptCost = 4
        config.clock = clock.clock
        config.ids = .sequential()
        // Never OpenStreetMap's public geocoder from a test: a test that locates addresses names its stand-in.
        config.geocoder = nil
        let scratch = try await PostgresScratch.create(for: engine)
        config.databaseURL = scratch?.url
        configure(&config)
        let cleanup: @Sendable (KithDatabase?) async -> Void = { [scratch] database in
            await database?.close()
            await scratch?.drop()
            try? FileManager.default.removeItem(at: dataDirectory)
        }
        let server: KithServerApp
        do {
            server = try await buildApplication(config, logger: quietLogger)
        } catch {
            await cleanup(nil)
            throw error
        }
        let finalConfig = config
        do {
            try await server.application.test(.live) { client in
                let port = try #require(client.port, "the live test server has no port")
                let live = LiveServer(
                    url: URL(string: "http://127.0.0.1:\(port)")!, port: port, clock: clock, config: finalConfig,
                    database: server.database, engine: engine, app: server)
                try await body(live)
            }
        } catch {
            await cleanup(server.database)
            throw error
        }
        await cleanup(server.database)
    }
}

/// A unique email per test, so parallel tests never collide.
func uniqueEmail(_ name: String = "person") -> String {
    "\(name)-\(UUID().uuidString.prefix(8).lowercased())@example.com"
}
