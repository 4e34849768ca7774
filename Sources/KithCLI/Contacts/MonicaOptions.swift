import ArgumentParser
import Foundation
import KithKit

/// Which Monica server `kith contacts` talks to, when not the Kith server the profile is signed in
/// to: `--monica-url`, with the API token from standard input or `KITH_MONICA_TOKEN`, never from
/// an argument (it would show in `ps` and in the shell's history).
struct MonicaOptions: ParsableArguments {
    @Option(
        name: .customLong("monica-url"),
        help: ArgumentHelp(
            "A Monica server (https://…, or http:// on this computer), such as https://app.monicahq.com. Its API token comes from --token-stdin or KITH_MONICA_TOKEN; the connection is saved in the profile.",
            valueName: "url"))
    var monicaURL: String?

    @Flag(
        name: .customLong("cloud"),
        help: "Monica's own cloud service (\(MonicaServerAddress.cloud.description)), instead of --monica-url.")
    var cloud = false

    /// The Monica server asked for: `--cloud`'s address or `--monica-url`'s text; nil for neither.
    var server: String? { cloud ? MonicaServerAddress.cloud.description : monicaURL }

    @Flag(name: .customLong("token-stdin"), help: "Read the Monica API token from standard input (one line).")
    var tokenStdin = false

    static let tokenVariable = "KITH_MONICA_TOKEN"

    /// The token given for this run (standard input, then the environment), or nil. `prompt`
    /// asks for it on a terminal when neither gives it.
    func token(from console: Console, prompt: Bool) throws -> String? {
        if tokenStdin {
            guard let line = console.readLine(), !line.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ValidationError("--token-stdin expects the API token on standard input.")
            }
            return line
        }
        if let value = console.environment[Self.tokenVariable], !value.isEmpty { return value }
        if prompt, let typed = console.readSecret("Monica API token: ") {
            return typed.isEmpty ? nil : typed
        }
        return nil
    }

    func validate() throws {
        if cloud, monicaURL != nil {
            throw ValidationError("Give --cloud or --monica-url, not both: --cloud is \(MonicaServerAddress.cloud).")
        }
        if tokenStdin, server == nil {
            throw ValidationError("--token-stdin goes with --monica-url or --cloud (the server the token is for).")
        }
    }
}
