import ArgumentParser
import Foundation
import KithCore
import KithKit

extension ContactsCommand {
    /// `kith contacts cache clear`: the SDK's `ContactBook.clearCache()` (the
    /// app's Settings → Clear Cache) on this profile's cache.
    struct Cache: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "This profile's offline cache of contacts.", subcommands: [Clear.self])
    }
}

extension ContactsCommand.Cache {
    struct Clear: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Forget the contacts and countries cached on this device (the server keeps them).",
            discussion: """
                Address edits made offline and not sent yet are kept, and sent by the next \
                `kith contacts sync`, which also fills the cache again. No request is made.
                """)
        @OptionGroup var options: ClientOptions

        func run(_ console: Console) async throws {
            try await options.run(console) { profile, output in
                guard let local = try ContactsSession.local(profile) else {
                    throw MonicaClientError.invalid(
                        "This profile has no contacts to cache: sign in (kith account login EMAIL) or connect to Monica (kith contacts connect --monica-url URL)."
                    )
                }
                var forgotten = 0
                var pending = 0
                if let book = try await local.openCache() {
                    forgotten = try await book.cachedContacts(page: 1, perPage: 1).total
                    try await book.clearCache()
                    pending = try await book.pendingAddressEdits().count
                }
                let json = CacheClearedJSON(
                    server: local.server.description, contactsForgotten: forgotten, pendingAddressEdits: pending)
                output.emit(json) {
                    var lines = [
                        forgotten == 0
                            ? "The offline cache of \(local.server) was empty."
                            : "Cleared the offline cache of \(local.server): \(Plural.count(forgotten, "contact")) forgotten on this device."
                    ]
                    if pending > 0 {
                        lines.append(
                            "\(Plural.count(pending, "address edit")) made offline \(pending == 1 ? "is" : "are") kept, to be sent by kith contacts sync."
                        )
                    }
                    return lines.joined(separator: "\n")
                }
            }
        }
    }
}

/// What `kith contacts cache clear --json` prints.
struct CacheClearedJSON: Encodable {
    let server: String
    let contactsForgotten: Int
    let pendingAddressEdits: Int
}
