import Foundation
import KithCore
import Logging
import SQLKit
import Synchronization

/// The server's connections to its SQLite file: one writer, taken by one task at a time (SQLite
/// allows one writer; waiting on a lock here beats "database is locked" retries), and a few
/// readers for requests that only read. In WAL mode a reader sees the last commit and neither
/// waits for the writer nor holds it up (docs/storage.md).
final class SQLiteConnections: Sendable {
    /// Readers beyond the cores could only queue for them.
    static let readerCount = max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// Each connection's page cache, as SQLite's negative `cache_size` (KiB): 8 MiB instead of 2,
    /// so a page of contacts is read from memory, not the file, with memory still bounded.
    static let cacheKiB = -8192
    /// WAL pages between checkpoints (SQLite's default 1,000). Each checkpoint copies the pages
    /// written since the last one into the database file and waits for the disk; writes that come
    /// back to the same pages (a session rotated, a counter bumped, an index's hot leaves) are copied
    /// once per checkpoint, so fewer checkpoints copy fewer pages. The WAL grows to
    /// about 16 MiB between them.
    static let checkpointPages = 4_000

    private let writer: SQLiteHandle
    private let writeLock = AsyncMutex()
    private let readers: SQLiteReaderPool
    private let logger: Logger

    init(path: String, logger: Logger) async throws {
        self.logger = logger
        writer = try SQLiteHandle(path: path)
        let sql = SQLiteHandleDatabase(handle: writer, logger: logger)
        // WAL lets the readers (and backups, the sqlite3 shell) read while the writer writes.
        try await sql.raw("PRAGMA journal_mode = WAL").run()
        try await sql.raw("PRAGMA foreign_keys = ON").run()
        try await sql.raw("PRAGMA busy_timeout = 5000").run()
        try await sql.raw("PRAGMA synchronous = NORMAL").run()
        try await sql.raw("PRAGMA cache_size = \(unsafeRaw: String(Self.cacheKiB))").run()
        try await sql.raw("PRAGMA wal_autocheckpoint = \(unsafeRaw: String(Self.checkpointPages))").run()
        var handles: [SQLiteHandle] = []
        for _ in 0..<Self.readerCount {
            let reader = try SQLiteHandle(path: path)
            let readerSQL = SQLiteHandleDatabase(handle: reader, logger: logger)
            try await readerSQL.raw("PRAGMA busy_timeout = 5000").run()
            try await readerSQL.raw("PRAGMA cache_size = \(unsafeRaw: String(Self.cacheKiB))").run()
            // A read that tries to write fails loudly instead of racing the writer.
            try await readerSQL.raw("PRAGMA query_only = ON").run()
            handles.append(reader)
        }
        readers = SQLiteReaderPool(handles)
    }

    /// Runs `body` on the writer; each statement commits on its own unless `begin` opens a transaction.
    func write<T: Sendable>(
        begin: String?, _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await writeLock.withLock {
            let sql = SQLiteHandleDatabase(handle: writer, logger: logger)
            guard let begin else { return try await body(sql) }
            return try await KithDatabase.inTransaction(sql, begin: begin, body)
        }
    }

    /// Runs `body` on a reader, in one read transaction so every statement sees the same commit.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let reader = await readers.take()
        do {
            let result = try await KithDatabase.inTransaction(
                SQLiteHandleDatabase(handle: reader, logger: logger), begin: "BEGIN", body)
            readers.give(reader)
            return result
        } catch {
            readers.give(reader)
            throw error
        }
    }

    func close() async {
        await writeLock.withLock { writer.close() }
        for reader in readers.drain() { reader.close() }
    }
}

/// Readers waiting their turn, first come first served. A plain lock, not an actor: taking an idle
/// reader is the common case and should cost no hop.
private final class SQLiteReaderPool: Sendable {
    private struct State {
        var idle: [SQLiteHandle]
        var waiting: [CheckedContinuation<SQLiteHandle, Never>] = []
    }

    private let state: Mutex<State>

    init(_ handles: [SQLiteHandle]) { state = Mutex(State(idle: handles)) }

    func take() async -> SQLiteHandle {
        if let handle = state.withLock({ $0.idle.popLast() }) { return handle }
        return await withCheckedContinuation { waiter in
            let handle = state.withLock { state -> SQLiteHandle? in
                if let handle = state.idle.popLast() { return handle }
                state.waiting.append(waiter)
                return nil
            }
            if let handle { waiter.resume(returning: handle) }
        }
    }

    func give(_ handle: SQLiteHandle) {
        let waiter = state.withLock { state -> CheckedContinuation<SQLiteHandle, Never>? in
            if state.waiting.isEmpty {
                state.idle.append(handle)
                return nil
            }
            return state.waiting.removeFirst()
        }
        waiter?.resume(returning: handle)
    }

    /// Takes every idle reader for closing; called once nothing else reads.
    func drain() -> [SQLiteHandle] {
        state.withLock { state in
            defer { state.idle = [] }
            return state.idle
        }
    }
}
