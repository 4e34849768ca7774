import ArgumentParser
import Foundation
import KithServer

struct BackupCommand: DatabaseFileCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the server's SQLite database to FILE, consistently, while the server runs.",
        discussion:
            "Put it back with `kith restore FILE` (server stopped). For PostgreSQL use pg_dump (docs/storage.md)."
    )

    @Argument(help: "The backup file to write (it must not exist).")
    var file: String

    @OptionGroup var options: DataOptions
    @OptionGroup var format: OutputOptions
    @ParentCommand var kith: KithCommand

    func perform(on database: String, output: Output) async throws {
        let summary = try await SQLiteBackup.backup(databaseAt: database, to: file, logger: Self.quietLogger)
        output.emit(summary) {
            "Backed up \(database) to \(summary.file): \(summary.users) account(s), \(summary.bytes) bytes."
        }
    }
}
