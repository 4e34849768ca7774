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
            AddressCommand.self, Countries.self, Sync.self,
        ]
    )

    /// Opens the profile's contacts and runs `body`; failures print one line on stderr and exit 1.
    static func run(
        _ options: ClientOptions, _ monica: MonicaOptions, _ console: Console,
        _ body: (ContactsSession) async throws -> Void
    ) async throws {
        try await reporting(options, console) { profile, output in
            let session = try await ContactsSession(profile, monica, console: console, output: output)
            do {
                try await body(session)
            } catch MonicaClientError.signedOut {
                throw KithError.invalid(MonicaClientError.signedOut.detail(signInHint: session.signInHint))
            }
        }
    }

    /// Runs `body` with the Monica client's and the geocoder's errors reported as the other
    /// commands report theirs: their sentence on one line (`--json`: `{"error":{"code","message"}}`).
    static func reporting(
        _ options: ClientOptions, _ console: Console, _ body: (Profile, Output) async throws -> Void
    ) async throws {
        try await options.run(console) { profile, output in
            do {
                try await body(profile, output)
            } catch let error as MonicaClientError {
                throw KithError.invalid(error.detail(signInHint: nil))
            } catch let error as GeocodingError {
                throw KithError.invalid(APIErrorDetail(code: error.code, message: error.userMessage))
            }
        }
    }
}

extension MonicaClientError {
    /// The error as `--json` prints it: `{"error":{"code","message"}}`.
    func detail(signInHint: String?) -> APIErrorDetail {
        var message = userMessage
        if self == .signedOut, let signInHint { message += " Run: \(signInHint)" }
        return APIErrorDetail(code: code, message: message)
    }

    var code: String {
        switch self {
        case .offline: "offline"
        case .timeout: "timeout"
        case .invalidToken: "invalid_token"
        case .signedOut: "signed_out"
        case .rateLimited: "rate_limited"
        case .serverTrouble: "server_trouble"
        case .notFound: "not_found"
        case .rejected: "rejected"
        case .invalidResponse: "invalid_response"
        case .invalidAddress: "invalid_address"
        case .insecureAddress: "insecure_address"
        case .notConnected: "not_connected"
        case .invalid: "invalid"
        case .storage: "storage"
        }
    }
}

extension GeocodingError {
    var code: String {
        switch self {
        case .notConfigured: "no_geocoder"
        case .notFound: "not_on_map"
        case .unavailable: "geocoder_unavailable"
        }
    }
}
