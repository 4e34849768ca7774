import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock on a SQLite database's lock file (`kith.sqlite.lock`), held by the server
/// while it runs: a second `kith serve` on the same data, or `kith restore` under a running
/// server, is refused with a clear message instead of two writers corrupting each other's view.
/// The kernel releases it when the process ends, however it ends.
public final class DataDirectoryLock: Sendable {
    private let descriptor: Int32
    public let path: String

    /// Takes the lock for the database at `databasePath`, or throws `DataDirectoryLockError.held`.
    public init(databasePath: String) throws {
        path = databasePath + ".lock"
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw DataDirectoryLockError.unusable(path, String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            close(descriptor)
            if reason == EWOULDBLOCK { throw DataDirectoryLockError.held(databasePath) }
            throw DataDirectoryLockError.unusable(path, String(cString: strerror(reason)))
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}

public enum DataDirectoryLockError: Error, CustomStringConvertible {
    case held(String)
    case unusable(String, String)

    public var description: String {
        switch self {
        case .held(let database):
            "another Kith server is using \(database); stop it first (or give this one another --data directory)"
        case .unusable(let path, let reason): "cannot lock \(path): \(reason)"
        }
    }
}
