import ArgumentParser
import Logging

/// What `kith backup` and `kith restore` share: they work on the data directory's SQLite file
/// (`DataOptions`), not on a server, so the client options are refused; output is text or JSON.
protocol DatabaseFileCommand: ConsoleCommand {
    var options: DataOptions { get }
    var format: OutputOptions { get }
    var kith: KithCommand { get }

    /// Does the command's work on the SQLite file at `database` and reports it through `output`.
    func perform(on database: String, output: Output) async throws
}

extension DatabaseFileCommand {
    func validate() throws {
        try kith.refuseClientOptions(in: Self.configuration.commandName ?? "", json: true)
    }

    func run(_ console: Console) async throws {
        let database = try options.sqlitePath(console.environment)
        let output = Output(json: format.json, console: console)
        try await output.run { try await perform(on: database, output: output) }
    }

    /// The backup code's progress notes are for the server's log, not for this command's output.
    static var quietLogger: Logger {
        var logger = Logger(label: "kith")
        logger.logLevel = .warning
        return logger
    }
}
