import ArgumentParser
import Foundation
import KithCore
import KithKit

struct TokensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens",
        abstract: "Personal access tokens for scripts and Monica-compatible apps.",
        subcommands: [List.self, Create.self, Revoke.self],
        defaultSubcommand: List.self
    )

    struct List: ConsoleCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List your tokens.")
        @OptionGroup var options: ClientOptions

        func run(_ console: Console) async throws {
            try await options.run(console) { profile, output in
                let tokens = try await profile.client().personalTokens()
                output.emit(PersonalTokenList(tokens: tokens)) {
                    guard !tokens.isEmpty else {
                        return "No tokens. Create one with `kith account tokens create NAME`."
                    }
                    return tokens.map { token in
                        let used =
                            token.lastUsedAt.map { "last used \(WireCoding.formatTimestamp($0))" } ?? "never used"
                        let expires = token.expiresAt.map { ", expires \(WireCoding.formatTimestamp($0))" } ?? ""
                        return
                            "\(token.id.lowercased)  \(token.name)  (created \(WireCoding.formatTimestamp(token.createdAt)), \(used)\(expires))"
                    }.joined(separator: "\n")
                }
            }
        }
    }

    struct Create: ConsoleCommand {
        static let configuration = CommandConfiguration(
            commandName: "create", abstract: "Create a token; it is shown once.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "A name that says where the token is used.") var name: String

        func run(_ console: Console) async throws {
            try await options.run(console) { profile, output in
                let client = try profile.client()
                let token = try await client.createPersonalToken(name: name)
                let session = try profile.sessionStore.load()
                let server = (session?.serverURL ?? client.serverURL).absoluteString
                let dav = (server.hasSuffix("/") ? String(server.dropLast()) : server) + "/dav/"
                output.emit(token) {
                    """
                    Created token "\(token.name)" (\(token.id.lowercased)). Copy it now, it is not shown again:
                    \(token.token ?? "")

                    Use it as the bearer token of a script or a Monica app, or as the app password of a phone's
                    own Contacts (CardDAV) and Reminders (CalDAV) apps: server \(dav), user name \(session?.user.email ?? "your email").
                    """
                }
            }
        }
    }

    struct Revoke: ConsoleCommand {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke a token.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The token's id.") var id: String

        func run(_ console: Console) async throws {
            try await options.run(console) { profile, output in
                guard let uuid = UUID(text: id) else {
                    throw ValidationError("The id must be a token id (a UUID).")
                }
                try await profile.client().revokePersonalToken(id: uuid)
                output.emit(["revoked": id]) { "Token revoked." }
            }
        }
    }
}
