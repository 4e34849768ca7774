import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a run of `kith` reads and writes: its environment, standard input, standard output and
/// error, and the terminal. Commands touch nothing else of the process, so a test runs them
/// in-process with a console of its own (`KithCLI.run(_:console:)`), and `kith` runs them with
/// `Console.process`.
public struct Console: Sendable {
    /// The environment variables the command sees: `KITH_HOME`, `KITH_SERVER`, `KITH_PASSWORD`…
    public var environment: [String: String]
    /// The next line of standard input without its line break; nil at its end.
    public var readLine: @Sendable () -> String?
    /// Asks for a secret on the terminal without echoing it; nil when there is no terminal to ask on.
    public var readSecret: @Sendable (_ prompt: String) -> String?
    /// Writes text to standard output at once: a reader of `kith serve` or `kith sync --watch`
    /// sees each line as it is written.
    public var write: @Sendable (String) -> Void
    /// Writes text to standard error at once.
    public var writeError: @Sendable (String) -> Void
    /// Waits as a command must (a server's `Retry-After`); tests pass one that moves their clock.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// The device's clock (what its stores stamp and judge "due" and "today" by, and when its
    /// session expires): the system's, or in tests one they move with the server's.
    public var now: @Sendable () -> Date
    /// Whether standard error is a terminal: a progress bar redraws itself there, and elsewhere
    /// (a log file, a test) writes a line per step.
    public var errorIsTerminal = false

    public init(
        environment: [String: String],
        readLine: @escaping @Sendable () -> String?,
        readSecret: @escaping @Sendable (_ prompt: String) -> String? = { _ in nil },
        write: @escaping @Sendable (String) -> Void,
        writeError: @escaping @Sendable (String) -> Void,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        now: @escaping @Sendable () -> Date = { Date() }, errorIsTerminal: Bool = false
    ) {
        self.errorIsTerminal = errorIsTerminal
        self.environment = environment
        self.readLine = readLine
        self.readSecret = readSecret
        self.write = write
        self.writeError = writeError
        self.sleep = sleep
        self.now = now
    }

    /// The process's environment, standard streams and terminal.
    public static var process: Console {
        Console(
            environment: ProcessInfo.processInfo.environment,
            readLine: { Swift.readLine(strippingNewline: true) },
            readSecret: { prompt in
                guard isatty(STDIN_FILENO) == 1, let typed = getpass(prompt) else { return nil }
                return String(cString: typed)
            },
            write: { FileHandle.standardOutput.write(Data($0.utf8)) },
            writeError: { FileHandle.standardError.write(Data($0.utf8)) },
            errorIsTerminal: isatty(STDERR_FILENO) == 1)
    }
}
