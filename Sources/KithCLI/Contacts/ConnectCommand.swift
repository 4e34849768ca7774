import ArgumentParser
import Foundation
import KithCore
import KithKit

extension ContactsCommand {
    struct Connect: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Connect this profile to a Monica server (--monica-url, or --cloud for Monica's own) with an API token.",
            discussion: """
                The token (Monica: Settings → API → Personal access tokens) comes from --token-stdin, \
                KITH_MONICA_TOKEN, or a prompt; never from an argument. It is checked with the server, \
                then saved in $KITH_HOME/profiles/NAME/monica.json (readable by you only); later commands \
                use it until `kith contacts disconnect`.
                """)
        @OptionGroup var options: ClientOptions
        @OptionGroup var monica: MonicaOptions

        func validate() throws {
            guard monica.server != nil else {
                throw ValidationError(
                    "Give the server: kith contacts connect --monica-url https://monica.example.com, or --cloud for Monica's own"
                )
            }
        }

        func run(_ console: Console) async throws {
            try await options.run(console) { profile, output in
                let server = try MonicaServerAddress(monica.server ?? "")
                guard let token = try monica.token(from: console, prompt: true) else {
                    throw MonicaClientError.invalid(
                        "Give the API token of \(server) with --token-stdin or the \(MonicaOptions.tokenVariable) environment variable."
                    )
                }
                let store = ContactsSession.credentialStore(profile)
                let (_, credentials) = try await MonicaClient.connect(
                    to: server, token: token, store: store, transport: profile.transport())
                let who = [credentials.user.name, credentials.user.email.map { "<\($0)>" }].compactMap { $0 }
                    .filter { !$0.isEmpty }.joined(separator: " ")
                let json = ContactsStatusJSON(
                    source: "monica", server: server.description, user: who, maskedToken: credentials.maskedToken)
                output.emit(json) {
                    "Connected to Monica at \(server) as \(who) (token \(credentials.maskedToken)). Fill the offline cache with: kith contacts sync"
                }
            }
        }
    }

    struct Disconnect: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Forget the Monica server: its token and this profile's cache of its contacts.",
            discussion: """
                Address edits not yet sent would be lost: the command refuses while some wait, unless \
                --yes. Afterwards contacts come from the Kith server the profile is signed in to, if any.
                """)
        @OptionGroup var options: ClientOptions
        @Flag(help: "Disconnect even if address edits made offline were not sent yet (they are lost).") var yes = false

        func run(_ console: Console) async throws {
            try await options.run(console) { profile, output in
                let store = ContactsSession.credentialStore(profile)
                guard let saved = try ContactsSession.loaded({ try store.load() }) else {
                    throw MonicaClientError.invalid("This profile is not connected to a Monica server.")
                }
                let cacheURL = ContactsSession.cacheURL(profile, server: saved.server, userID: saved.user.id)
                let waiting = try await Self.pendingEdits(in: cacheURL, server: saved.server)
                if waiting > 0, !yes {
                    throw MonicaClientError.invalid(
                        "\(Plural.count(waiting, "address edit")) made offline \(waiting == 1 ? "was" : "were") not sent yet: run `kith contacts sync` first, or add --yes to lose \(waiting == 1 ? "it" : "them")."
                    )
                }
                try ContactsSession.loaded { try store.clear() }
                for suffix in ["", "-wal", "-shm"] {
                    let file = URL(fileURLWithPath: cacheURL.path + suffix)
                    if FileManager.default.fileExists(atPath: file.path) {
                        do {
                            try FileManager.default.removeItem(at: file)
                        } catch {
                            throw MonicaClientError.storage(
                                "cannot remove \(file.path) (\(error.localizedDescription))")
                        }
                    }
                }
                output.emit(["disconnected": saved.server.description]) {
                    "Disconnected from \(saved.server): its token and this profile's cached contacts are gone."
                }
            }
        }

        static func pendingEdits(in cacheURL: URL, server: MonicaServerAddress) async throws -> Int {
            guard FileManager.default.fileExists(atPath: cacheURL.path) else { return 0 }
            let book = try await ContactBook(client: MonicaClient(server: server, token: ""), cacheURL: cacheURL)
            return try await book.pendingAddressEdits().count
        }
    }
}
