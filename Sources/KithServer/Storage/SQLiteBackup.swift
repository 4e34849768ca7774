import Foundation
import Logging
import SQLKit

/// `kith backup` and `kith restore` for the embedded SQLite database (docs/storage.md). A backup is
/// one ordinary SQLite file, consistent as of one moment, taken while the server keeps running;
/// a restore puts one back while the server is stopped. PostgreSQL has `pg_dump` for this.
public enum SQLiteBackup {
    public struct Summary: Sendable, Codable, Equatable {
        public var file: String
        public var bytes: Int64
        public var users: Int
        public var migration: Int
    }

    /// Writes a copy of the database at `source` to `destination`, which must not exist yet.
    /// `VACUUM INTO` reads one snapshot (WAL mode lets it run beside the server's writes) and
    /// writes a compact file with no WAL of its own.
    public static func backup(databaseAt source: String, to destination: String, logger: Logger) async throws -> Summary {
        guard FileManager.default.fileExists(atPath: source) else {
            throw BackupError("there is no database at \(source) (check --data)")
        }
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw BackupError("\(destination) already exists; give a new file name")
        }
        do {
            let connection = try SQLiteHandle(path: source)
            defer { connection.close() }
            let sql = SQLiteHandleDatabase(handle: connection, logger: logger)
            try await sql.raw("PRAGMA busy_timeout = 10000").run()
            try await sql.raw("VACUUM INTO \(bind: destination)").run()
        } catch {
            throw BackupError("the backup failed: \(error)")
        }
        return try await summary(of: destination, logger: logger)
    }

    /// Replaces the database at `target` with the backup at `backupPath`, after checking the
    /// backup is whole and is a Kith database. Refused while a server holds the database. The
    /// database it replaces is kept beside it (`<name>.replaced-<time>`), never deleted.
    public static func restore(
        backupAt backupPath: String, to target: String, logger: Logger, clock: Clock = .system
    ) async throws -> Summary {
        let lock = try DataDirectoryLock(databasePath: target)
        let checked = try await summary(of: backupPath, logger: logger)
        let files = FileManager.default
        let staging = target + ".restoring"
        try? files.removeItem(atPath: staging)
        try files.copyItem(atPath: backupPath, toPath: staging)
        if files.fileExists(atPath: target) {
            let kept = target + ".replaced-\(clock.nowMillis)"
            // Fold the WAL into the old file first, so what is kept is whole on its own.
            try await checkpoint(target, logger: logger)
            try files.moveItem(atPath: target, toPath: kept)
            logger.info("the database that was replaced is kept at \(kept)")
        }
        for suffix in ["-wal", "-shm"] { try? files.removeItem(atPath: target + suffix) }
        try files.moveItem(atPath: staging, toPath: target)
        withExtendedLifetime(lock) {}
        return Summary(file: target, bytes: checked.bytes, users: checked.users, migration: checked.migration)
    }

    /// Opens `path` and checks it: SQLite's integrity check passes, and it has a Kith schema this
    /// version knows (an older one is brought up to date when the server starts).
    static func summary(of path: String, logger: Logger) async throws -> Summary {
        guard FileManager.default.fileExists(atPath: path) else { throw BackupError("there is no file at \(path)") }
        let connection: SQLiteHandle
        do {
            connection = try SQLiteHandle(path: path)
        } catch {
            throw BackupError("\(path) is not a SQLite database")
        }
        let result: Result<(migration: Int, users: Int), BackupError>
        do {
            result = .success(try await contents(SQLiteHandleDatabase(handle: connection, logger: logger), path: path))
        } catch let error as BackupError {
            result = .failure(error)
        } catch let error as SQLiteFailure where error.isNotADatabase {
            // SQLite opens any file; the first read finds out what it is.
            result = .failure(BackupError("\(path) is not a SQLite database"))
        } catch {
            result = .failure(BackupError("\(path) is not a Kith database (\(error))"))
        }
        connection.close()
        let (migration, users) = try result.get()
        let latest = Migrations.all.map(\.version).max() ?? 0
        guard migration <= latest else {
            throw BackupError("\(path) was made by a newer Kith (schema \(migration), this one knows \(latest))")
        }
        let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        return Summary(file: path, bytes: bytes, users: users, migration: migration)
    }

    private static func contents(_ sql: any SQLDatabase, path: String) async throws -> (migration: Int, users: Int) {
        let integrity = try await sql.raw("PRAGMA integrity_check").first(decodingColumn: "integrity_check", as: String.self)
        guard integrity == "ok" else { throw BackupError("\(path) is damaged: \(integrity ?? "no answer")") }
        let migration =
            try await sql.raw("SELECT MAX(version) AS v FROM schema_migrations").first(decodingColumn: "v", as: Int?.self)
            ?? nil
        guard let migration else { throw BackupError("\(path) is not a Kith database") }
        let users = try await sql.raw("SELECT COUNT(*) AS n FROM users").first(decodingColumn: "n", as: Int.self) ?? 0
        return (migration, users)
    }

    private static func checkpoint(_ path: String, logger: Logger) async throws {
        let connection = try SQLiteHandle(path: path)
        defer { connection.close() }
        try await SQLiteHandleDatabase(handle: connection, logger: logger).raw("PRAGMA wal_checkpoint(TRUNCATE)").run()
    }
}

public struct BackupError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
