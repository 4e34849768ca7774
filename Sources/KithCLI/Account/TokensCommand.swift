import ArgumentParser
import Foundation
import KithCore
import KithKit

struct TokensCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens",
        abstract: "Personal access tokens for scripts and Monica-compatible apps.",
        subcommands: [List.self, Create.self, Revoke.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List your tokens.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            let output = Output(json: options.json)
            try await output.run {
                let tokens = try await options.client().personalTokens()
                output.emit(PersonalTokenList(tokens: tokens)) {
                    guard !tokens.isEmpty else { return "No tokens. Create one with `kith account tokens create NAME`." }
                    return tokens.map { token in
                        let used = token.lastUsedAt.map { "last used \(WireCoding.formatTimestamp($0))" } ?? "never used"
                        let expires = token.expiresAt.map { ", expires \(WireCoding.formatTimestamp($0))" } ?? ""
                        return "\(token.id.uuidString.lowercased())  \(token.name)  (created \(WireCoding.formatTimestamp(token.createdAt)), \(used)\(expires))"
                    }.joined(separator: "\n")
                }
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a token; it is shown once.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "A name that says where the token is used.") var name: String

        func run() async throws {
            let output = Output(json: options.json)
            try await output.run {
                let token = try await options.client().createPersonalToken(name: name)
                output.emit(token) {
                    "Created token \"\(token.name)\" (\(token.id.uuidString.lowercased())). Copy it now, it is not shown again:\n\(token.token ?? "")"
                }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke a token.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The token's id.") var id: String

        func run() async throws {
            let output = Output(json: options.json)
            try await output.run {
                guard let uuid = UUID(uuidString: id) else { throw ValidationError("The id must be a token id (a UUID).") }
                try await options.client().revokePersonalToken(id: uuid)
                output.emit(["revoked": id]) { "Token revoked." }
            }
        }
    }
}
