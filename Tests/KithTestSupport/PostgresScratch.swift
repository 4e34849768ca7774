import Foundation
import KithServer
import Logging

/// A fresh PostgreSQL database for one test, so tests running in parallel never see each other's rows.
/// Created on the server `KITH_TEST_DATABASE_URL` names; the caller calls `drop()` when done.
public struct PostgresScratch: Sendable {
    /// The scratch database's URL, for `ServerConfig.databaseURL` or `--database-url`.
    public let url: String
    let name: String
    private let adminURL: String

    /// A scratch database when `engine` is PostgreSQL; nil for SQLite, which needs none.
    public static func create(for engine: Engine) async throws -> PostgresScratch? {
        engine == .postgres ? try await create() : nil
    }

    /// Creates the database; throws when `KITH_TEST_DATABASE_URL` is unset, so a PostgreSQL test
    /// cannot pass by quietly running on nothing.
    public static func create() async throws -> PostgresScratch {
        guard let adminURL = Engine.adminURL, var components = URLComponents(string: adminURL) else {
            throw TestFailure("KITH_TEST_DATABASE_URL is not set")
        }
        let hex = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let name = "kith_test_\(hex)"
        try await withAdmin(adminURL) { admin in
            try await admin.run { try await $0.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
        }
        components.path = "/\(name)"
        guard let url = components.string else { throw TestFailure("cannot build a URL from \(adminURL)") }
        return PostgresScratch(url: url, name: name, adminURL: adminURL)
    }

    /// Drops the database even while connections to it remain (WITH (FORCE)): a test that failed
    /// half-way must not leave it behind. Errors are ignored; cleanup never fails a test.
    public func drop() async {
        try? await Self.withAdmin(adminURL) { admin in
            try await admin.run { try await $0.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run() }
        }
    }

    /// Runs `body` on a connection to the admin database. `migrate: false`: creating and dropping
    /// databases needs no Kith tables, and the admin database must not get any.
    private static func withAdmin(_ adminURL: String, _ body: (KithDatabase) async throws -> Void) async throws {
        var logger = Logger(label: "kith-test-pg-admin")
        logger.logLevel = .critical
        let admin = try await KithDatabase.open(.postgres(url: adminURL), logger: logger, migrate: false)
        do {
            try await body(admin)
        } catch {
            await admin.close()
            throw error
        }
        await admin.close()
    }
}
