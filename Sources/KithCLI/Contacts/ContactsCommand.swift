import ArgumentParser
import Foundation
import KithCore
import KithKit

/// `kith contacts …`: the Contacts app (seeds 004 and 001) on the command line, against a Monica
/// server or the Kith server the profile is signed in to, with an offline cache.
struct ContactsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contacts",
        abstract: "Your contacts: list, search, details, addresses, with an offline cache.",
        discussion: """
            Contacts come from a Monica server connected with --monica-url (its API token from \
            KITH_MONICA_TOKEN or --token-stdin; saved in the profile), else from the Kith server the \
            profile is signed in to. Without a network, list, search, show and addresses answer from \
            this profile's cache, and address edits wait on this device until the server can be reached.
            """,
        subcommands: [
            Connect.self, Disconnect.self, Status.self, List.self, Search.self, Show.self, Addresses.self,
            AddressCommand.self, Countries.self, Sync.self, Cache.self, Merge.self, Export.self, Import.self,
        ]
    )

    /// Opens the profile's contacts and runs `body`; failures print one line on stderr and exit 1.
    /// `minimumTimeout` gives each request at least that many seconds (files being copied).
    static func run(
        _ options: ClientOptions, _ monica: MonicaOptions, _ console: Console, minimumTimeout: TimeInterval = 0,
        _ body: (ContactsSession) async throws -> Void
    ) async throws {
        try await options.run(console) { profile, output in
            let session = try await ContactsSession(
                profile, monica, console: console, output: output, minimumTimeout: minimumTimeout)
            do {
                try await body(session)
            } catch MonicaClientError.signedOut {
                throw SignedOut(hint: session.signInHint)
            }
        }
    }
}

/// Monica's "session expired" with what to run to sign in again.
struct SignedOut: UserFacingError {
    let hint: String

    var userMessage: String { MonicaClientError.signedOut.userMessage + " Run: \(hint)" }
    var kind: ErrorKind { MonicaClientError.signedOut.kind }
    var identifier: String { MonicaClientError.signedOut.identifier }
}
