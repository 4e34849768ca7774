import ArgumentParser
import Foundation
import KithServer
import Logging

struct BackupCommand: ConsoleCommand {
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

    func validate() throws {
        try kith.refuseClientOptions(in: "backup", json: true)
    }

    func run(_ console: Console) async throws {
        let source = try options.sqlitePath(console.environment)
        let output = Output(json: format.json, console: console)
        try await output.run {
            let summary = try await SQLiteBackup.backup(databaseAt: source, to: file, logger: BackupLogger.quiet)
            output.emit(summary) {
                "Backed up \(source) to \(summary.file): \(summary.users) account(s), \(summary.bytes) bytes."
            }
        }
    }
}

struct RestoreCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a backup made by `kith backup` back as the server's database (stop the server first).",
        discussion: """
            The backup is checked first (whole, a Kith database). The database it replaces is kept beside it as \
            kith.sqlite.replaced-<time>. Refused while a server runs on the same data.
            """
    )

    @Argument(help: "The backup file to restore.")
    var file: String

    @OptionGroup var options: DataOptions
    @OptionGroup var format: OutputOptions
    @ParentCommand var kith: KithCommand

    func validate() throws {
        try kith.refuseClientOptions(in: "restore", json: true)
    }

    func run(_ console: Console) async throws {
        let target = try options.sqlitePath(console.environment)
        let output = Output(json: format.json, console: console)
        try await output.run {
            let summary = try await SQLiteBackup.restore(backupAt: file, to: target, logger: BackupLogger.quiet)
            output.emit(summary) {
                "Restored \(file) to \(target): \(summary.users) account(s). Start the server with `kith serve`."
            }
        }
    }
}

enum BackupLogger {
    static var quiet: Logger {
        var logger = Logger(label: "kith")
        logger.logLevel = .warning
        return logger
    }
}
