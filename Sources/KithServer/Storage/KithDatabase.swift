import AsyncKit
import Foundation
import KithCore
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit

/// Where the server keeps its data: an embedded SQLite file (the default) or a PostgreSQL server.
public enum DatabaseLocation: Sendable, Equatable {
    case sqlite(path: String)
    case postgres(url: String)
}

/// The server's one handle on storage. Queries are written once with SQLKit and run on either engine;
/// to keep them portable, ids are stored as text and times as integer milliseconds.
public final class KithDatabase: @unchecked Sendable {
    public enum Engine: String, Sendable { case sqlite, postgres }

    public let engine: Engine
    private let backend: Backend
    private let logger: Logger

    private enum Backend {
        /// SQLite allows one writer at a time; one connection behind a lock makes every transaction
        /// exclusive without "database is locked" retries.
        case sqlite(SQLiteConnection, AsyncMutex)
        case postgres(EventLoopGroupConnectionPool<PostgresConnectionSource>)
    }

    private init(engine: Engine, backend: Backend, logger: Logger) {
        self.engine = engine
        self.backend = backend
        self.logger = logger
    }

    /// Opens (creating if needed) the database and, unless told not to, brings its schema up to date.
    public static func open(
        _ location: DatabaseLocation, logger: Logger, migrate: Bool = true, clock: Clock = .system
    ) async throws
        -> KithDatabase
    {
        let database: KithDatabase
        switch location {
        case .sqlite(let path):
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
            let sql = connection.sql(queryLogLevel: nil)
            // WAL lets readers of the file (backups, sqlite3 shell) work while the server writes.
            try await sql.raw("PRAGMA journal_mode = WAL").run()
            try await sql.raw("PRAGMA foreign_keys = ON").run()
            try await sql.raw("PRAGMA busy_timeout = 5000").run()
            try await sql.raw("PRAGMA synchronous = NORMAL").run()
            database = KithDatabase(engine: .sqlite, backend: .sqlite(connection, AsyncMutex()), logger: logger)
        case .postgres(let url):
            let pool = EventLoopGroupConnectionPool(
                source: PostgresConnectionSource(sqlConfiguration: try postgresConfiguration(url: url)),
                maxConnectionsPerEventLoop: 4,
                pruneInterval: .seconds(60),
                logger: logger,
                on: MultiThreadedEventLoopGroup.singleton
            )
            database = KithDatabase(engine: .postgres, backend: .postgres(pool), logger: logger)
        }
        guard migrate else { return database }
        do {
            try await Migrator(database: database, clock: clock).migrate()
        } catch {
            await database.close()
            throw error
        }
        return database
    }

    /// How every PostgreSQL connection of the server is made, pooled or not (the change listener's).
    static func postgresConfiguration(url: String) throws -> SQLPostgresConfiguration {
        var configuration = try SQLPostgresConfiguration(url: url)
        configuration.coreConfiguration.options.connectTimeout = .seconds(10)
        return configuration
    }

    /// Runs `body` with a connection; each statement commits on its own.
    public func run<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        switch backend {
        case .sqlite(let connection, let mutex):
            return try await mutex.withLock { try await body(connection.sql(queryLogLevel: nil)) }
        case .postgres(let pool):
            return try await withPostgresConnection(pool) { try await body($0) }
        }
    }

    /// Runs `body` in one transaction: everything it writes commits together or not at all.
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        switch backend {
        case .sqlite(let connection, let mutex):
            return try await mutex.withLock {
                try await Self.inTransaction(connection.sql(queryLogLevel: nil), begin: "BEGIN IMMEDIATE", body)
            }
        case .postgres(let pool):
            return try await withPostgresConnection(pool) { try await Self.inTransaction($0, begin: "BEGIN", body) }
        }
    }

    public func close() async {
        switch backend {
        case .sqlite(let connection, let mutex):
            await mutex.withLock { try? await connection.close() }
        case .postgres(let pool):
            try? await pool.shutdownAsync()
        }
    }

    private static func inTransaction<T: Sendable>(
        _ sql: any SQLDatabase, begin: String, _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await sql.raw(SQLQueryString(begin)).run()
        do {
            let result = try await body(sql)
            try await sql.raw("COMMIT").run()
            return result
        } catch {
            try? await sql.raw("ROLLBACK").run()
            throw error
        }
    }

    private func withPostgresConnection<T: Sendable>(
        _ pool: EventLoopGroupConnectionPool<PostgresConnectionSource>,
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        // The pool hands out connections through futures; bridge once here so callers stay async.
        try await pool.withConnection(logger: logger) { connection in
            connection.eventLoop.makeFutureWithTask { try await body(connection.sql(queryLogLevel: nil)) }
        }.get()
    }
}
