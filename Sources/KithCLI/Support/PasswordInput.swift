import ArgumentParser
import Foundation

/// Where passwords come from: never argv (it shows in `ps` and shell history), but standard input
/// (`--password-stdin`, one password per line), environment variables, or a prompt on a terminal.
struct PasswordInput: ParsableArguments {
    @Flag(name: .customLong("password-stdin"), help: "Read the password(s) from standard input, one per line.")
    var passwordStdin = false

    /// Reads `count` passwords, in order; `environmentNames[i]` is the fallback for the i-th.
    func read(_ prompts: [String], environmentNames: [String], from console: Console) throws -> [String] {
        if passwordStdin {
            var lines: [String] = []
            while lines.count < prompts.count, let line = console.readLine() { lines.append(line) }
            guard lines.count == prompts.count else {
                throw ValidationError("--password-stdin expects \(prompts.count) line(s) on standard input")
            }
            return lines
        }
        return try zip(prompts, environmentNames).map { prompt, name in
            if let value = console.environment[name] { return value }
            if let typed = console.readSecret("\(prompt): ") { return typed }
            throw ValidationError("Give the password with --password-stdin or the \(name) environment variable.")
        }
    }
}
