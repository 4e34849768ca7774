import ArgumentParser
import Foundation
import KithCore
import KithKit

struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Sign up, sign in and manage your account.",
        subcommands: [
            SignUp.self, LogIn.self, LogOut.self, WhoAmI.self, Password.self, ResetPassword.self, Delete.self,
            TokensCommand.self,
        ]
    )

    struct SignUp: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "signup", abstract: "Create an account and sign in.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var passwords: PasswordInput
        @Argument(help: "Your email address.") var email: String

        func run() async throws {
            try await startSession(options, passwords, done: "Signed up and signed in as") {
                try await $0.signUp(email: email, password: $1)
            }
        }
    }

    struct LogIn: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "login", abstract: "Sign in.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var passwords: PasswordInput
        @Argument(help: "Your email address.") var email: String

        func run() async throws {
            try await startSession(options, passwords, done: "Signed in as") { try await $0.signIn(email: email, password: $1) }
        }
    }

    /// Sign-up and sign-in alike: read the password, start the session, print the user.
    private static func startSession(
        _ options: ClientOptions, _ passwords: PasswordInput, done: String,
        _ start: (KithClient, String) async throws -> UserDTO
    ) async throws {
        let output = Output(json: options.json)
        try await output.run {
            let password = try passwords.read(["Password"], environmentNames: ["KITH_PASSWORD"])[0]
            let user = try await start(options.client(), password)
            output.emit(user) { "\(done) \(user.email)." }
        }
    }

    struct LogOut: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out of this profile.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            let output = Output(json: options.json)
            try await output.run {
                try await options.client().signOut()
                output.emit(["signedOut": true]) { "Signed out." }
            }
        }
    }

    struct WhoAmI: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show the signed-in user.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            let output = Output(json: options.json)
            try await output.run {
                let client = try options.client()
                let user = try await client.me()
                output.emit(user) {
                    "\(user.email)\nid: \(user.id.uuidString.lowercased())\nserver: \(client.serverURL.absoluteString)"
                }
            }
        }
    }

    struct Password: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "password",
            abstract: "Change your password; other devices are signed out.",
            discussion: "With --password-stdin: the current password on the first line, the new one on the second. Else KITH_PASSWORD and KITH_NEW_PASSWORD."
        )
        @OptionGroup var options: ClientOptions
        @OptionGroup var passwords: PasswordInput

        func run() async throws {
            let output = Output(json: options.json)
            try await output.run {
                let given = try passwords.read(
                    ["Current password", "New password"], environmentNames: ["KITH_PASSWORD", "KITH_NEW_PASSWORD"])
                try await options.client().changePassword(current: given[0], new: given[1])
                output.emit(["passwordChanged": true]) { "Password changed. Other devices were signed out." }
            }
        }
    }

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password",
            abstract: "Mail yourself a password reset link, or set a new password with its token (--token).",
            discussion: "With --token, the new password comes from --password-stdin or KITH_NEW_PASSWORD."
        )
        @OptionGroup var options: ClientOptions
        @OptionGroup var passwords: PasswordInput
        @Argument(help: "Your email address (to request the mail).") var email: String?
        @Option(help: "The token from the mailed link (to set the new password).") var token: String?

        func validate() throws {
            if (email == nil) == (token == nil) { throw ValidationError("Give either an email or --token.") }
        }

        func run() async throws {
            let output = Output(json: options.json)
            try await output.run {
                let client = try options.client()
                if let token {
                    let new = try passwords.read(["New password"], environmentNames: ["KITH_NEW_PASSWORD"])[0]
                    try await client.confirmPasswordReset(token: token, newPassword: new)
                    output.emit(["passwordReset": true]) { "Password set. Sign in with the new one." }
                } else if let email {
                    try await client.requestPasswordReset(email: email)
                    output.emit(["requested": true]) { "If an account exists for \(email), a reset link is on its way." }
                }
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete your account and all of its data, for good.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var passwords: PasswordInput
        @Flag(help: "Confirm that the account and all of its data should be deleted.") var yes = false

        func validate() throws {
            guard yes else { throw ValidationError("Deleting an account can't be undone: add --yes to confirm.") }
        }

        func run() async throws {
            let output = Output(json: options.json)
            try await output.run {
                let password = try passwords.read(["Password"], environmentNames: ["KITH_PASSWORD"])[0]
                try await options.client().deleteAccount(password: password)
                output.emit(["deleted": true]) { "Account deleted." }
            }
        }
    }
}
