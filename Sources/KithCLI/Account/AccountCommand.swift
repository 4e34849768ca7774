import ArgumentParser
import Foundation
import KithCore
import KithKit

struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Sign up, sign in and manage your account.",
        subcommands: [
            SignUp.self, LogIn.self, LogOut.self, WhoAmI.self, Password.self, ResetPassword.self, Delete.self,
            TokensCommand.self, DevicesCommand.self,
        ]
    )

    struct SignUp: ConsoleCommand {
        static let configuration = CommandConfiguration(
            commandName: "signup", abstract: "Create an account and sign in.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var passwords: PasswordInput
        @Argument(help: "Your email address.") var email: String

        func run(_ console: Console) async throws {
            try await startSession(options, passwords, console, done: "Signed up and signed in as") {
                profile, output, client, password in
                let user = try await client.signUp(email: email, password: password)
                try await AccountCommand.moveAnonymousData(to: user, client: client, profile: profile, output: output)
                return user
            }
        }
    }

    struct LogIn: ConsoleCommand {
        static let configuration = CommandConfiguration(commandName: "login", abstract: "Sign in.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var passwords: PasswordInput
        @Argument(help: "Your email address.") var email: String

        func run(_ console: Console) async throws {
            try await startSession(options, passwords, console, done: "Signed in as") { profile, output, client, password in
                let user = try await client.signIn(email: email, password: password)
                try await AccountCommand.moveAnonymousData(to: user, client: client, profile: profile, output: output)
                return user
            }
        }
    }

    /// Data made in this profile before signing up or in moves into the account and is uploaded now,
    /// with progress on stderr; after three failed attempts it stays queued for
    /// the next `kith sync`.
    @MainActor
    static func moveAnonymousData(to user: UserDTO, client: KithClient, profile: Profile, output: Output) async throws {
        let engine = SyncEngine(store: try profile.storeDirectory.store(forUser: user.id), service: client)
        let move = AnonymousDataMove(directory: profile.storeDirectory, engine: engine, backoff: Backoff(base: .milliseconds(500), cap: .seconds(2)))
        move.onChange = { phase in
            switch phase {
            case .uploading(let done, let total) where done == 0:
                output.note("Moving \(total) record\(total == 1 ? "" : "s") made before signing in into the account…")
            case .uploading(let done, let total): output.note("Uploaded \(done) of \(total).")
            case .retrying(_, _, let reason): output.note("Upload failed (\(reason)); retrying.")
            case .finished(let total): output.note("All \(total) record\(total == 1 ? " is" : "s are") now in your account.")
            case .idle, .nothingToMove: break
            }
        }
        if case .retrying = try await move.run(maxAttempts: 3) {
            output.note("Not uploaded yet; they are kept on this device and `kith sync` will send them.")
        }
    }

    /// Sign-up and sign-in alike: read the password, start the session, print the user.
    private static func startSession(
        _ options: ClientOptions, _ passwords: PasswordInput, _ console: Console, done: String,
        _ start: (Profile, Output, KithClient, String) async throws -> UserDTO
    ) async throws {
        try await options.run(console) { profile, output in
            let password = try passwords.read(["Password"], environmentNames: ["KITH_PASSWORD"], from: console)[0]
            let user = try await start(profile, output, profile.client(), password)
            output.emit(user) { "\(done) \(user.email)." }
        }
    }

    struct LogOut: ConsoleCommand {
        static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out of this profile.")
        @OptionGroup var options: ClientOptions

        func run(_ console: Console) async throws {
            try await options.run(console) { profile, output in
                try await profile.client().signOut()
                output.emit(["signedOut": true]) { "Signed out." }
            }
        }
    }

    struct WhoAmI: ConsoleCommand {
        static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show the signed-in user.")
        @OptionGroup var options: ClientOptions

        func run(_ console: Console) async throws {
            try await options.run(console) { profile, output in
                let client = try profile.client()
                let user = try await client.me()
                output.emit(user) {
                    "\(user.email)\nid: \(user.id.lowercased)\nserver: \(client.serverURL.absoluteString)"
                }
            }
        }
    }

    struct Password: ConsoleCommand {
        static let configuration = CommandConfiguration(
            commandName: "password",
            abstract: "Change your password; other devices are signed out.",
            discussion:
                "With --password-stdin: the current password on the first line, the new one on the second. Else KITH_PASSWORD and KITH_NEW_PASSWORD."
        )
        @OptionGroup var options: ClientOptions
        @OptionGroup var passwords: PasswordInput

        func run(_ console: Console) async throws {
            try await options.run(console) { profile, output in
                let given = try passwords.read(
                    ["Current password", "New password"], environmentNames: ["KITH_PASSWORD", "KITH_NEW_PASSWORD"],
                    from: console)
                try await profile.client().changePassword(current: given[0], new: given[1])
                output.emit(["passwordChanged": true]) { "Password changed. Other devices were signed out." }
            }
        }
    }

    struct ResetPassword: ConsoleCommand {
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

        func run(_ console: Console) async throws {
            try await options.run(console) { profile, output in
                let client = try profile.client()
                if let token {
                    let new = try passwords.read(
                        ["New password"], environmentNames: ["KITH_NEW_PASSWORD"], from: console)[0]
                    try await client.confirmPasswordReset(token: token, newPassword: new)
                    output.emit(["passwordReset": true]) { "Password set. Sign in with the new one." }
                } else if let email {
                    try await client.requestPasswordReset(email: email)
                    output.emit(["requested": true]) {
                        "If an account exists for \(email), a reset link is on its way."
                    }
                }
            }
        }
    }

    struct Delete: ConsoleCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete your account and all of its data, for good.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var passwords: PasswordInput
        @Flag(help: "Confirm that the account and all of its data should be deleted.") var yes = false

        func validate() throws {
            guard yes else { throw ValidationError("Deleting an account can't be undone: add --yes to confirm.") }
        }

        func run(_ console: Console) async throws {
            try await options.run(console) { profile, output in
                let password = try passwords.read(["Password"], environmentNames: ["KITH_PASSWORD"], from: console)[0]
                let client = try profile.client()
                let user = try await client.storedSession()?.user
                try await client.deleteAccount(password: password)
                // The account's data on this device goes with it.
                if let user { try profile.storeDirectory.removeData(forUser: user.id) }
                output.emit(["deleted": true]) { "Account deleted." }
            }
        }
    }
}
