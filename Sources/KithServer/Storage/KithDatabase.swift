import AsyncKit
import Foundation
import KithCore
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit

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
    /// Whether writes can succeed (`/healthz`): a full disk fails them.
    let writeHealth: WriteHealth

    private enum Backend {
        /// One writer behind a lock and a few readers (SQLiteConnections).
        case sqlite(SQLiteConnections)
        /// A pool; statements kept prepared per connection under these names, or nil: all unnamed.
        case postgres(EventLoopGroupConnectionPool<PostgresConnectionSource>, PreparedStatementNames?, EventLoopTaskExecutors)
    }

    private init(engine: Engine, backend: Backend, logger: Logger, directory: String? = nil) {
        self.engine = engine
        self.backend = backend
        self.logger = logger
        self.writeHealth = WriteHealth(directory: directory)
    }

    /// Opens (creating if needed) the database and, unless told not to, brings its schema up to date.
    ///
    /// On PostgreSQL, `preparedStatements` keeps each connection's statements prepared (off behind
    /// a pooler in transaction mode that can't carry them, docs/storage.md), and
    /// `connectionsPerEventLoop` sizes the pool (one event loop per core).
    public static func open(
        _ location: DatabaseLocation, logger: Logger, migrate: Bool = true, clock: Clock = .system,
        preparedStatements: Bool = true, connectionsPerEventLoop: Int = PostgresPoolSize.standard
    ) async throws
        -> KithDatabase
    {
        let database: KithDatabase
        switch location {
        case .sqlite(let path):
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let connections = try await SQLiteConnections(path: path, logger: logger)
            database = KithDatabase(engine: .sqlite, backend: .sqlite(connections), logger: logger, directory: directory.path)
        case .postgres(let url):
            let loops = MultiThreadedEventLoopGroup.singleton
            let pool = EventLoopGroupConnectionPool(
                source: PostgresConnectionSource(sqlConfiguration: try postgresConfiguration(url: url)),
                maxConnectionsPerEventLoop: connectionsPerEventLoop,
                pruneInterval: .seconds(60),
                logger: logger,
                on: loops
            )
            database = KithDatabase(
                engine: .postgres,
                backend: .postgres(pool, preparedStatements ? PreparedStatementNames() : nil, EventLoopTaskExecutors(loops)),
                logger: logger)
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
        var configuration = try PostgresURL.configuration(url)
        configuration.coreConfiguration.options.connectTimeout = .seconds(10)
        return configuration
    }

    /// Runs `body` with a connection; each statement commits on its own.
    public func run<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        do {
            switch backend {
            case .sqlite(let connections):
                return try await connections.write(begin: nil, body)
            case .postgres(let pool, let names, let executors):
                return try await withPostgresConnection(pool, names, executors) { try await body($0) }
            }
        } catch {
            throw writeHealth.noting(error)
        }
    }

    /// Throws when the database does not answer a trivial query (the health check).
    func checkReachable() async throws {
        try await run { sql in try await sql.raw("SELECT 1 AS ok").run() }
    }

    /// Runs `body`, which only reads, on one snapshot of the data. On SQLite it takes a reader, so
    /// it neither waits for a write in progress nor holds one up; a statement that writes fails.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        switch backend {
        case .sqlite(let connections):
            return try await connections.read(body)
        case .postgres(let pool, let names, let executors):
            return try await withPostgresConnection(pool, names, executors) { try await body($0) }
        }
    }

    /// Runs `body` in one transaction: everything it writes commits together or not at all.
    /// A full disk fails it with `StorageFullError`.
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        do {
            let result: T
            switch backend {
            case .sqlite(let connections):
                result = try await connections.write(begin: "BEGIN IMMEDIATE", body)
            case .postgres(let pool, let names, let executors):
                result = try await withPostgresConnection(pool, names, executors) { try await Self.inTransaction($0, begin: "BEGIN", body) }
            }
            writeHealth.committed()
            return result
        } catch {
            throw writeHealth.noting(error)
        }
    }

    public func close() async {
        switch backend {
        case .sqlite(let connections):
            await connections.close()
        case .postgres(let pool, _, _):
            try? await pool.shutdownAsync()
        }
    }

    static func inTransaction<T: Sendable>(
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
        _ pool: EventLoopGroupConnectionPool<PostgresConnectionSource>, _ names: PreparedStatementNames?,
        _ executors: EventLoopTaskExecutors, _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        // PostgresNIO answers every statement on the connection's event loop, and the pool hands
        // out that loop's connections on it: the whole body runs there, so neither a checkout nor a
        // statement wakes another thread to go on. A task of its own, as before: a caller that is
        // cancelled (a client gone, a job past its lease) must not stop a transaction halfway.
        let loop = pool.eventLoopGroup.any()
        let logger = logger
        // AsyncKit's pool is not marked Sendable, but is made to be shared: it locks its state and
        // serves each loop's connections on that loop.
        nonisolated(unsafe) let pool = pool
        return try await Task(executorPreference: executors.executor(for: loop)) {
            let connection = try await pool.requestConnection(logger: logger, on: loop).get()
            defer { pool.releaseConnection(connection, logger: logger) }
            let sql: any SQLDatabase =
                if let names { PreparedStatementDatabase(connection: connection, names: names) } else {
                    connection.sql(queryLogLevel: nil)
                }
            return try await body(sql)
        }.value
    }
}

/// How many pooled connections a PostgreSQL-backed server keeps per event loop (one loop per core).
public enum PostgresPoolSize {
    /// Measured with `bench/run-pg-profile` (docs/storage.md).
    public static let standard = 4
}
