import Foundation
@testable import KithCLI
import KithKit
import KithTestSupport
import Testing

/// How `kith` reads its command line: the global options wherever they stand, their environment
/// defaults, usage errors, and help.
@Suite("kith's arguments: global options, environment defaults, usage errors, help")
struct ArgumentTests {
    @Test("--profile, --server and --json work before the command's name, between its words, and after it")
    func globalOptionsAnywhere() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let environment = ["KITH_HOME": home.path]
                let email = "anywhere@example.com"
                let signup = await kith(
                    [
                        "--server", server.url.absoluteString, "--profile", "laptop", "--json", "account", "signup",
                        email,
                        "--password-stdin",
                    ],
                    environment: environment, input: "a good password\n")
                #expect(try signup.object()["email"] as? String == email)
                let session = try #require(
                    try FileSessionStore(fileURL: home.appendingPathComponent("profiles/laptop/session.json")).load())
                #expect(session.serverURL == server.url)

                for arguments in [
                    ["--profile", "laptop", "--json", "account", "whoami"],
                    ["account", "--profile", "laptop", "whoami", "--json"],
                    ["account", "whoami", "--profile", "laptop", "--json"],
                    ["--json", "account", "whoami", "--profile=laptop"],
                ] {
                    let whoami = await kith(arguments, environment: environment)
                    #expect(try whoami.object()["email"] as? String == email, "\(arguments)")
                }
                let otherProfile = await kith(["account", "whoami"], environment: environment)
                #expect(otherProfile.exitCode == 1, "the default profile is another device\n\(otherProfile)")
                #expect(otherProfile.stderr == "error: You are not signed in. Run `kith account login` first.\n")
            }
        }
    }

    @Test("KITH_PROFILE and KITH_SERVER are the defaults of --profile and --server; the flags win")
    func environmentDefaults() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let nowhere = "http://127.0.0.1:\(try closedLoopbackPort())"
                var environment = ["KITH_HOME": home.path, "KITH_PROFILE": "phone"]
                environment["KITH_SERVER"] = server.url.absoluteString
                let email = "defaults@example.com"
                let signup = await kith(
                    ["account", "signup", email, "--password-stdin"], environment: environment,
                    input: "a good password\n")
                #expect(signup.stdout == "Signed up and signed in as \(email).\n", "\(signup)")
                #expect(
                    FileManager.default.fileExists(
                        atPath: home.appendingPathComponent("profiles/phone/session.json").path))

                let whoami = await kith(["account", "whoami"], environment: environment)
                #expect(whoami.stdout == "\(email)\nid: \(try idLine(whoami))\nserver: \(server.url.absoluteString)\n")
                let otherProfile = await kith(["account", "whoami", "--profile", "tablet"], environment: environment)
                #expect(otherProfile.exitCode == 1 && otherProfile.stderr.contains("not signed in"), "\(otherProfile)")

                // KITH_SERVER names a server that is down: --server wins; without it, the command can't connect.
                environment["KITH_SERVER"] = nowhere
                environment["KITH_PASSWORD"] = "a good password"
                let login = await kith(
                    ["--profile", "tablet", "--server", server.url.absoluteString, "account", "login", email],
                    environment: environment)
                #expect(login.stdout == "Signed in as \(email).\n", "\(login)")
                let down = await kith(["--profile", "desk", "account", "login", email], environment: environment)
                #expect(down.exitCode == 1, "\(down)")
                #expect(down.stderr == "error: Cannot connect. Check your internet and try again.\n", "\(down)")
            }
        }
    }

    /// The id on `kith account whoami`'s second line.
    func idLine(_ run: CLIRun) throws -> String {
        let line = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("id: ") }, "\(run)")
        return String(line.dropFirst(4))
    }

    struct UsageError: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var environment: [String: String] = [:]
        var input = ""
        var says: String

        var testDescription: String { "kith " + arguments.joined(separator: " ") }
    }

    static let usageErrors: [UsageError] = [
        UsageError(arguments: ["outreach", "list", "--yeer", "2030"], says: "Unknown option '--yeer'"),
        UsageError(
            arguments: ["outreach", "add", "--first", "Ada"], says: "Missing expected argument '--last <last>'"),
        UsageError(arguments: ["--profile", "..", "outreach", "years"], says: "--profile takes letters, digits"),
        UsageError(
            arguments: ["outreach", "years"], environment: ["KITH_PROFILE": "../escape"],
            says: "KITH_PROFILE takes letters, digits"),
        UsageError(arguments: ["status", "--server", "nowhere"], says: "--server must be a URL"),
        UsageError(arguments: ["status"], environment: ["KITH_SERVER": "nowhere"], says: "KITH_SERVER must be a URL"),
        UsageError(
            arguments: ["status"], environment: ["KITH_TIMEOUT": "soon"],
            says: "KITH_TIMEOUT must be a number of seconds"),
        UsageError(
            arguments: ["account", "login", "ada@example.com", "hunter2-secret"],
            says: "Unexpected argument 'hunter2-secret'"),
        UsageError(
            arguments: ["account", "login", "ada@example.com"],
            says: "Give the password with --password-stdin or the KITH_PASSWORD environment variable."),
        UsageError(
            arguments: ["account", "password", "--password-stdin"], input: "only one line\n",
            says: "--password-stdin expects 2 line(s) on standard input"),
        UsageError(arguments: ["outreach", "year", "delete", "2030"], says: "add --yes to confirm"),
        UsageError(arguments: ["contacts", "list", "--page", "0"], says: "--page starts at 1."),
        UsageError(arguments: ["serve", "--port", "70000"], says: "--port must be 0-65535"),
        UsageError(
            arguments: ["serve", "--nutrition-retention-days", "0"],
            says: "--nutrition-retention-days must be a number of days from 1 to 36500, got \"0\""),
        UsageError(
            arguments: ["serve"], environment: ["KITH_NUTRITION_RETENTION_DAYS": "90 days"],
            says: "KITH_NUTRITION_RETENTION_DAYS must be a number of days from 1 to 36500, got \"90 days\""),
        UsageError(arguments: ["serve", "--profile", "phone"], says: "`kith serve` does not take --profile"),
        UsageError(arguments: ["--json", "serve"], says: "`kith serve` does not take --json"),
        UsageError(
            arguments: ["--server", "http://127.0.0.1:9", "backup", "copy.sqlite"],
            says: "`kith backup` does not take --server"),
    ]

    @Test("a usage error says what is wrong on standard error and exits 64", arguments: usageErrors)
    func usageError(_ error: UsageError) async throws {
        try await withHome { home in
            var environment = error.environment
            environment["KITH_HOME"] = home.path
            let run = await kith(error.arguments, environment: environment, input: error.input)
            #expect(run.exitCode == 64, "\(run)")
            #expect(run.stderr.contains(error.says), "\(run)")
            #expect(run.stderr.contains("Usage: kith"), "\(run)")
            #expect(run.stdout.isEmpty, "\(run)")
        }
    }

    @Test("--help lists the global options at the root and in each client command, not in serve or backup")
    func help() async throws {
        let root = await kith(["--help"])
        #expect(root.exitCode == 0 && root.stderr.isEmpty, "\(root)")
        #expect(root.stdout.contains("USAGE: kith [--server <server>] [--profile <profile>] [--json] <subcommand>"))
        #expect(root.stdout.contains("GLOBAL OPTIONS:"))
        #expect(root.stdout.contains("KITH_SERVER") && root.stdout.contains("KITH_PROFILE"))
        for name in ["serve", "account", "sync", "status", "outreach", "contacts", "backup", "restore"] {
            #expect(root.stdout.contains("\n  \(name) "), "\(name) is listed")
        }
        #expect(await kith([]).stdout == root.stdout, "`kith` alone shows the same help")

        for arguments in [["outreach", "list", "--help"], ["--profile", "phone", "outreach", "list", "--help"]] {
            let list = await kith(arguments)
            #expect(list.exitCode == 0, "\(list)")
            #expect(
                list.stdout.contains(
                    "USAGE: kith outreach list [--server <server>] [--profile <profile>] [--json] [--year <year>]"),
                "\(list)")
        }
        let helpCommand = await kith(["help", "contacts", "address", "add"])
        #expect(helpCommand.exitCode == 0 && helpCommand.stdout.contains("--postal-code"), "\(helpCommand)")

        let serve = await kith(["serve", "--help"])
        #expect(serve.stdout.contains("--database-url") && !serve.stdout.contains("--profile"), "\(serve)")
        let backup = await kith(["backup", "--help"])
        #expect(backup.stdout.contains("--json") && !backup.stdout.contains("--server"), "\(backup)")
    }

    @Test("only a server on PostgreSQL runs its tasks on the event loops: a flag or KITH_DATABASE_URL names it")
    func whichProcessesRunTasksOnEventLoops() {
        let postgres = "postgres://kith@/kith?host=/tmp"
        #expect(ServeCommand.servesPostgreSQL(["serve", "--database-url", postgres], environment: [:]))
        #expect(ServeCommand.servesPostgreSQL(["serve", "--port", "0"], environment: ["KITH_DATABASE_URL": postgres]))
        #expect(!ServeCommand.servesPostgreSQL(["serve"], environment: [:]), "SQLite")
        #expect(!ServeCommand.servesPostgreSQL(["serve", "--database-url", ""], environment: ["KITH_DATABASE_URL": postgres]))
        #expect(!ServeCommand.servesPostgreSQL(["contacts", "list"], environment: ["KITH_DATABASE_URL": postgres]))
        #expect(!ServeCommand.servesPostgreSQL(["serve", "--no-such-flag"], environment: ["KITH_DATABASE_URL": postgres]))
    }
}
