import Foundation
import Hummingbird
import HummingbirdTesting
import KithCore
import KithServer
import Logging
import NIOCore
import Testing

/// The storage engines server tests run on: SQLite always, PostgreSQL when `scripts/test` started
/// one and exported `KITH_TEST_DATABASE_URL`.
enum Engine: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    static var available: [Engine] {
        ProcessInfo.processInfo.environment["KITH_TEST_DATABASE_URL"].map { _ in [.sqlite, .postgres] } ?? [.sqlite]
    }

    var testDescription: String { rawValue }
}

/// A server built for one test: its own SQLite file or PostgreSQL database, a clock the test
/// moves, and bcrypt at its lowest cost.
struct TestServer: Sendable {
    let app: KithServerApp
    let clock: TestClock
    let config: ServerConfig
    private let cleanup: @Sendable () async throws -> Void

    static func make(_ engine: Engine, configure: (inout ServerConfig) -> Void = { _ in }) async throws -> TestServer {
        let clock = TestClock()
        var config = ServerConfig()
        config.dataDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("kith-test-\(UUID().uuidString)").path
        config.port = 0
        config.clock = clock.clock
        config.accounts.bcryptCost = 4
        config.publicURL = "https://kith.example"
        var scratch: (url: String, drop: @Sendable () async throws -> Void)?
        if engine == .postgres {
            scratch = try await PostgresScratch.create()
            config.databaseURL = scratch?.url
        }
        let dropDatabase = scratch?.drop
        configure(&config)
        var logger = Logger(label: "kith-test")
        logger.logLevel = .warning
        let app = try await buildApplication(config, logger: logger)
        let dataDirectory = config.dataDirectory
        return TestServer(app: app, clock: clock, config: config) {
            await app.database.close()
            try? await dropDatabase?()
            try? FileManager.default.removeItem(atPath: dataDirectory)
        }
    }

    /// Runs `body` against the router (no socket), then releases the storage.
    static func withRouter(
        _ engine: Engine, configure: (inout ServerConfig) -> Void = { _ in },
        _ body: @escaping @Sendable (TestServer, any TestClientProtocol) async throws -> Void
    ) async throws {
        let server = try await make(engine, configure: configure)
        do {
            try await server.app.application.test(.router) { client in try await body(server, client) }
        } catch {
            try await server.cleanup()
            throw error
        }
        try await server.cleanup()
    }
}

/// A fresh PostgreSQL database per test, so tests never see each other's rows.
enum PostgresScratch {
    static func create() async throws -> (url: String, drop: @Sendable () async throws -> Void) {
        guard let adminURL = ProcessInfo.processInfo.environment["KITH_TEST_DATABASE_URL"],
            var components = URLComponents(string: adminURL)
        else { throw TestFailure("KITH_TEST_DATABASE_URL is not set") }
        let name = "kith_t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let admin = try await KithDatabase.open(.postgres(url: adminURL), logger: Logger(label: "pg-admin"), migrate: false)
        try await admin.run { try await $0.raw("CREATE DATABASE \(unsafeRaw: String(name))").run() }
        await admin.close()
        components.path = "/\(name)"
        let url = components.string!
        return (
            url,
            {
                let admin = try await KithDatabase.open(.postgres(url: adminURL), logger: Logger(label: "pg-admin"), migrate: false)
                try await admin.run { try await $0.raw("DROP DATABASE IF EXISTS \(unsafeRaw: String(name)) WITH (FORCE)").run() }
                await admin.close()
            }
        )
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
