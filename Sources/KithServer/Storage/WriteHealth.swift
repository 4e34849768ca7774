import Foundation
import GRDBSQLite
import PostgresNIO
import Synchronization

/// A write failed because the disk under the database is full (SQLite's `SQLITE_FULL`,
/// PostgreSQL's `disk_full`). Requests answer it 503 with a sentence a person understands, never
/// 500: nothing was changed, and trying again later will work once there is room.
struct StorageFullError: Error, CustomStringConvertible {
    let underlying: String
    var description: String { "the database's disk is full: \(underlying)" }
}

/// Whether the server can write, for `/healthz`: not since a write failed for want of disk, until a
/// transaction commits again; and, on SQLite, not while the data directory's disk has less than
/// `minimumFreeBytes` left (SQLite fails on the next write that needs a page).
final class WriteHealth: Sendable {
    static let minimumFreeBytes: UInt64 = 1 << 20
    /// The SQLite file's directory, whose free space tells; nil on PostgreSQL (its disk is its own).
    private let directory: String?
    private let full = Atomic<Bool>(false)

    init(directory: String?) {
        self.directory = directory
    }

    var canWrite: Bool {
        guard !full.load(ordering: .relaxed) else { return false }
        guard let directory, let free = Self.freeBytes(at: directory) else { return true }
        return free >= Self.minimumFreeBytes
    }

    /// A transaction committed: there was room for it.
    func committed() {
        if full.load(ordering: .relaxed) { full.store(false, ordering: .relaxed) }
    }

    /// `error` as it should reach the request: `StorageFullError` when the disk was full (and
    /// remembered), else unchanged.
    func noting(_ error: any Error) -> any Error {
        guard Self.isDiskFull(error) else { return error }
        full.store(true, ordering: .relaxed)
        return StorageFullError(underlying: "\(error)")
    }

    static func isDiskFull(_ error: any Error) -> Bool {
        switch error {
        case is StorageFullError: return true
        case let failure as SQLiteFailure: return failure.code & 0xff == SQLITE_FULL
        case let failure as PSQLError: return failure.serverInfo?[.sqlState] == "53100"
        default: return false
        }
    }

    private static func freeBytes(at path: String) -> UInt64? {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return nil }
        return UInt64(stats.f_bavail) * UInt64(stats.f_frsize)
    }
}
