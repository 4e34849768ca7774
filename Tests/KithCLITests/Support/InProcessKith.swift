import Foundation
import KithCLI
import KithTestSupport
import Testing

/// What one in-process run of `kith` printed and how it ended.
struct CLIRun: CustomStringConvertible {
    var exitCode: Int32
    var stdout: String
    var stderr: String

    var description: String { "exit \(exitCode)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }

    /// Standard output as a JSON value (`--json`), after requiring success.
    func json() throws -> Any {
        try #require(exitCode == 0, "\(self)")
        return try JSONSerialization.jsonObject(with: Data(stdout.utf8))
    }

    func object() throws -> [String: Any] {
        try #require(try json() as? [String: Any], "stdout is not a JSON object:\n\(self)")
    }

    func array() throws -> [[String: Any]] {
        try #require(try json() as? [[String: Any]], "stdout is not a JSON array of objects:\n\(self)")
    }
}

/// Runs `kith arguments` in this process, seeing only `environment` (plus a generous request
/// timeout) and `input` as standard input; there is no terminal to prompt on. Its clock is `now`.
func kith(
    _ arguments: [String], environment: [String: String] = [:], input: String = "",
    sleep: @escaping @Sendable (Duration) async throws -> Void = { _ in
        Issue.record("the command waited, and this test did not expect it to")
    },
    now: @escaping @Sendable () -> Date = { Date() }, errorIsTerminal: Bool = false
) async -> CLIRun {
    let stdout = Locked("")
    let stderr = Locked("")
    let remaining = Locked(Substring(input))
    var environment = environment
    // A loaded 2-core CI machine can keep a request waiting for seconds.
    if environment["KITH_TIMEOUT"] == nil { environment["KITH_TIMEOUT"] = "30" }
    let console = Console(
        environment: environment,
        readLine: {
            remaining.withLock { rest in
                guard !rest.isEmpty else { return nil }
                let end = rest.firstIndex(of: "\n") ?? rest.endIndex
                let line = String(rest[..<end])
                rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
                return line
            }
        },
        write: { text in stdout.withLock { $0 += text } },
        writeError: { text in stderr.withLock { $0 += text } },
        sleep: sleep, now: now, errorIsTerminal: errorIsTerminal)
    let code = await KithCLI.run(arguments, console: console)
    return CLIRun(exitCode: code, stdout: stdout.value, stderr: stderr.value)
}

/// One device: a profile under its own `KITH_HOME`. Its global options go before the command, as
/// people type them (`kith --profile laptop --server URL outreach list`).
struct Device {
    var profile: String
    let home: URL
    var server: URL?
    var environment: [String: String] = [:]
    /// What a wait of the command does (a server's `Retry-After`): by default, a test failure.
    var sleep: @Sendable (Duration) async throws -> Void = { _ in
        Issue.record("the command waited, and this test did not expect it to")
    }
    /// The device's clock: the wall clock, or the server's test clock where the test moves time.
    var now: @Sendable () -> Date = { Date() }
    /// Whether its standard error is a terminal (progress redrawn in place).
    var errorIsTerminal = false

    init(_ profile: String = "laptop", home: URL, server: URL?) {
        self.profile = profile
        self.home = home
        self.server = server
    }

    func kith(_ arguments: [String], input: String = "") async -> CLIRun {
        var global = ["--profile", profile]
        if let server { global += ["--server", server.absoluteString] }
        var environment = self.environment
        environment["KITH_HOME"] = home.path
        return await KithCLITests.kith(
            global + arguments, environment: environment, input: input, sleep: sleep, now: now,
            errorIsTerminal: errorIsTerminal)
    }

    /// Runs with `--json` and returns the printed JSON, requiring success.
    func json(_ arguments: [String], input: String = "") async throws -> Any {
        try await kith(["--json"] + arguments, input: input).json()
    }

    func object(_ arguments: [String], input: String = "") async throws -> [String: Any] {
        try await kith(["--json"] + arguments, input: input).object()
    }

    func array(_ arguments: [String]) async throws -> [[String: Any]] {
        try await kith(["--json"] + arguments).array()
    }

    var directory: URL { home.appendingPathComponent("profiles/\(profile)") }

    /// Signs up a new account from this device and returns its email.
    @discardableResult
    func signUp(password: String = "a good password") async throws -> String {
        let email = "cli-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let run = await kith(["account", "signup", email, "--password-stdin"], input: password + "\n")
        try #require(run.exitCode == 0, "\(run)")
        return email
    }
}

/// A `KITH_HOME` for one test, removed afterwards.
func withHome(_ body: (URL) async throws -> Void) async throws {
    let home = try makeTemporaryDirectory("kith-cli-home")
    defer { try? FileManager.default.removeItem(at: home) }
    try await body(home)
}
