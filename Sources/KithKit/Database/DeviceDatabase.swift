import Foundation
import GRDB

/// Opens a SQLite database on this device the one way KithKit's stores do (`LocalStore`,
/// `ContactCache`): a file (its directory created when missing) in WAL mode through a
/// `DatabasePool`, so reads never wait for the writer; or, without a file, a `DatabaseQueue` in
/// memory (tests, previews). The migrator runs before the writer is handed over. Each store maps
/// failures to its own error type.
enum DeviceDatabase {
    static func open(at url: URL?, migrator: DatabaseMigrator) throws -> any DatabaseWriter {
        let writer: any DatabaseWriter
        if let url {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            writer = try DatabasePool(path: url.path)
        } else {
            writer = try DatabaseQueue()
        }
        try migrator.migrate(writer)
        return writer
    }
}
