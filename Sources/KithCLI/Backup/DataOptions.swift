import ArgumentParser
import Foundation
import KithServer

/// Which server data `kith backup` and `kith restore` work on: `--data`, else `KITH_DATA`, else
/// `./kith-data`, as `kith serve` decides it.
struct DataOptions: ParsableArguments {
    @Option(help: "The server's data directory (holding kith.sqlite). Default KITH_DATA, else ./kith-data.")
    var data: String?

    /// The SQLite file; PostgreSQL has its own tools.
    func sqlitePath(_ environment: [String: String]) throws -> String {
        var config: ServerConfig
        do {
            config = try ServerConfig.fromEnvironment(environment)
        } catch {
            throw ValidationError("\(error)")
        }
        if let data { config.dataDirectory = data }
        switch config.databaseLocation {
        case .sqlite(let path): return path
        case .postgres:
            throw ValidationError(
                "KITH_DATABASE_URL names PostgreSQL: back it up with pg_dump and restore with pg_restore (docs/storage.md)."
            )
        }
    }
}
