import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where passwords come from: never argv (it shows in `ps` and shell history), but standard input
/// (`--password-stdin`, one password per line), environment variables, or a prompt on a terminal.
struct PasswordInput: ParsableArguments {
    @Flag(name: .customLong("password-stdin"), help: "Read the password(s) from standard input, one per line.")
    var passwordStdin = false

    /// Reads `count` passwords, in order; `environmentNames[i]` is the fallback for the i-th.
    func read(_ prompts: [String], environmentNames: [String]) throws -> [String] {
        if passwordStdin {
            var lines: [String] = []
            while lines.count < prompts.count, let line = readLine(strippingNewline: true) { lines.append(line) }
            guard lines.count == prompts.count else {
                throw ValidationError("--password-stdin expects \(prompts.count) line(s) on standard input")
            }
            return lines
        }
        let environment = ProcessInfo.processInfo.environment
        return try zip(prompts, environmentNames).map { prompt, name in
            if let value = environment[name] { return value }
            if isatty(STDIN_FILENO) == 1, let typed = getpass("\(prompt): ") { return String(cString: typed) }
            throw ValidationError("Give the password with --password-stdin or the \(name) environment variable.")
        }
    }
}
