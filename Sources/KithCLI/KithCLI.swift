import ArgumentParser
import KithServer

/// The `kith` command line: `kith serve`, and the client commands of a Kith server.
public enum KithCLI {
    /// What the process must do before any task runs, for `arguments` and the process's
    /// `environment`: a server on PostgreSQL runs Swift's tasks on NIO's event loops
    /// (`ServerThreads`). A server on SQLite, whose statements hold their thread, and the client
    /// commands keep Swift's own pool.
    public static func prepareProcess(for arguments: [String], environment: [String: String]) {
        if ServeCommand.servesPostgreSQL(arguments, environment: environment) { ServerThreads.runTasksOnEventLoops() }
    }

    /// Runs the command `arguments` name (the program's name left out), reading and writing only
    /// through `console`, and returns the exit status: 0, 1 when the command failed (one line on
    /// standard error), 64 for a usage error (the message and the usage).
    public static func run(_ arguments: [String], console: Console) async -> Int32 {
        do {
            var command = try KithCommand.parseAsRoot(arguments)
            if let command = command as? any ConsoleCommand {
                try await command.run(console)
            } else {
                // A group without its subcommand, or `kith help …`: ArgumentParser throws the help screen.
                try command.run()
            }
            return ExitCode.success.rawValue
        } catch {
            let code = KithCommand.exitCode(for: error)
            let message = KithCommand.fullMessage(for: error, columns: nil)
            if !message.isEmpty {
                if code == .success { console.write(message + "\n") } else { console.writeError(message + "\n") }
            }
            return code.rawValue
        }
    }
}

/// A `kith` command that does its work: parsed by ArgumentParser, then run by `KithCLI.run` with the
/// console it reads and writes through (never the process's own streams or environment).
protocol ConsoleCommand: ParsableCommand {
    func run(_ console: Console) async throws
}
