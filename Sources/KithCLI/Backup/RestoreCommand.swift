import ArgumentParser
import Foundation
import KithServer

struct RestoreCommand: DatabaseFileCommand {
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

    func perform(on database: String, output: Output) async throws {
        let summary = try await SQLiteBackup.restore(backupAt: file, to: database, logger: Self.quietLogger)
        output.emit(summary) {
            "Restored \(file) to \(database): \(summary.users) account(s). Start the server with `kith serve`."
        }
    }
}
