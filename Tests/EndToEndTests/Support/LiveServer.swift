import Foundation
import Hummingbird
import HummingbirdTesting
import KithCore
import KithKit
import KithServer
import Logging
import Synchronization
import Testing

/// A clock the tests move by hand, so token expiry happens without waiting.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date()) { current = Mutex(start) }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }

    var clock: KithServer.Clock { KithServer.Clock { [self] in now } }
}

/// The storage engines end-to-end tests run on: SQLite always, PostgreSQL when
/// `KITH_TEST_DATABASE_URL` names a server whose role may create databases.
enum Engine: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    static var adminURL: String? {
        ProcessInfo.processInfo.environment["KITH_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static var available: [Engine] { adminURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    var testDescription: String { rawValue }
}

struct E2EFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A fresh PostgreSQL database for one test, dropped at its end.
struct PostgresScratch: Sendable {
    let url: String
    let name: String
    let adminURL: String

    static func create() async throws -> PostgresScratch {
        guard let adminURL = Engine.adminURL, var components = URLComponents(string: adminURL) else {
            throw E2EFailure("KITH_TEST_DATABASE_URL is not set")
        }
        let hex = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let name = "kith_e2e_\(hex)"
        let admin = try await KithDatabase.open(.postgres(url: adminURL), logger: quietLogger, migrate: false)
        do {
            try await admin.run { try await $0.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
        } catch {
            await admin.close()
            throw error
        }
        await admin.close()
        components.path = "/\(name)"
        return PostgresScratch(url: components.string!, name: name, adminURL: adminURL)
    }

    func drop() async {
        guard let admin = try? await KithDatabase.open(.postgres(url: adminURL), logger: quietLogger, migrate: false)
        else { return }
        _ = try? await admin.run { try await $0.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run() }
        await admin.close()
    }
}

let quietLogger: Logger = {
    var logger = Logger(label: "kith-e2e")
    logger.logLevel = .critical
    return logger
}()

/// A fresh, empty temporary directory.
func makeTemporaryDirectory(_ prefix: String = "kith-e2e") throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A Kith server listening on a loopback port for the duration of one test.
struct LiveServer: Sendable {
    let url: URL
    let port: Int
    let clock: TestClock
    let config: ServerConfig
    let database: KithDatabase
    let engine: Engine

    var outbox: Outbox { Outbox(directory: config.outboxDirectory) }

    /// A device talking to this server over real HTTP.
    func client(store: any SessionStore = InMemorySessionStore(), now: @escaping @Sendable () -> Date = { Date() })
        -> KithClient
    {
        KithClient(serverURL: url, store: store, now: now)
    }

    /// Builds the server on `engine`, has it listen on 127.0.0.1 with a free port, runs `body`, then
    /// shuts it down and removes its data (directory, PostgreSQL database).
    static func run(
        _ engine: Engine = .sqlite, configure: (inout ServerConfig) -> Void = { _ in },
        _ body: @Sendable (LiveServer) async throws -> Void
    ) async throws {
        let clock = TestClock()
        let dataDirectory = try makeTemporaryDirectory("kith-e2e-data")
        var config = ServerConfig()
        config.dataDirectory = dataDirectory.path
        config.host = "127.0.0.1"
        config.port = 0
        config.accounts.bcryptCost = 4
        config.clock = clock.clock
        var scratch: PostgresScratch?
        if engine == .postgres {
            scratch = try await PostgresScratch.create()
            config.databaseURL = scratch?.url
        }
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
                    database: server.database, engine: engine)
                try await body(live)
            }
        } catch {
            await cleanup(server.database)
            throw error
        }
        await cleanup(server.database)
    }
}

/// The mail the server wrote to `<data>/outbox/` (no SMTP configured).
struct Outbox: Sendable {
    let directory: URL

    var mails: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".eml") }.sorted().compactMap {
            try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
        }
    }

    /// Waits (up to 5 s) for a mail to `recipient`: delivery runs after the request answered.
    func waitForMail(to recipient: String, timeout: Duration = .seconds(5)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let mail = mails.last(where: { $0.contains("To: \(recipient)") }) { return mail }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw E2EFailure("no mail to \(recipient) appeared in \(directory.path) within \(timeout); found \(mails.count)")
    }

    /// The password reset link in a mail, e.g. `http://127.0.0.1:PORT/reset-password?token=...`.
    static func resetLink(in mail: String) -> URL? {
        guard let start = mail.range(of: "http") else { return nil }
        let link = mail[start.lowerBound...].prefix { !$0.isWhitespace }
        guard link.contains("/reset-password?token=") else { return nil }
        return URL(string: String(link))
    }
}

/// A unique email per test, so parallel tests never collide.
func uniqueEmail(_ name: String = "person") -> String {
    "\(name)-\(UUID().uuidString.prefix(8).lowercased())@example.com"
}

/// Expects `body` to throw a `KithError` and returns it.
@discardableResult
func expectKithError(
    _ body: () async throws -> some Any, sourceLocation: SourceLocation = #_sourceLocation
) async -> KithError? {
    do {
        _ = try await body()
        Issue.record("expected a KithError, but the call succeeded", sourceLocation: sourceLocation)
        return nil
    } catch let error as KithError {
        return error
    } catch {
        Issue.record("expected a KithError, got \(String(reflecting: error))", sourceLocation: sourceLocation)
        return nil
    }
}

/// A lock-protected value for state that test closures share.
final class Locked<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result { storage.withLock { body(&$0) } }
}
