import ArgumentParser
import Foundation
import KithCore
import KithKit

extension ContactsCommand {
    struct Search: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Find contacts by name, nickname, job, company or email, best first.",
            discussion: """
                Searches this profile's cache, so it works offline and finds near spellings ("Jon" finds \
                John and Jonathan). A cache never filled is synced first when the server answers; \
                `kith contacts sync` refreshes it.
                """)
        @OptionGroup var options: ClientOptions
        @OptionGroup var monica: MonicaOptions
        @Argument(help: "Words to look for; every word must match.") var text: [String]
        @Option(help: "At most this many contacts.") var limit = 50

        func validate() throws {
            guard !text.joined().trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ValidationError("Say what to look for: kith contacts search TEXT")
            }
            guard limit >= 1 else { throw ValidationError("--limit must be at least 1.") }
        }

        func run(_ console: Console) async throws {
            try await ContactsCommand.run(options, monica, console) { session in
                let query = text.joined(separator: " ")
                var offlineReason: MonicaClientError?
                if try await session.book.lastSync() == nil {
                    do {
                        try await session.book.sync()
                    } catch let error as MonicaClientError where error.isRetryable {
                        offlineReason = error
                    }
                }
                let found = try await session.book.search(query, limit: limit)
                let cachedAt = try await session.book.lastSync()
                if let offlineReason {
                    session.offlineNote("matches among the contacts", reason: offlineReason, cachedAt: cachedAt)
                }
                let json = SearchJSON(
                    query: query, contacts: found.map { ContactJSON($0) }, cachedAt: cachedAt,
                    offlineReason: offlineReason?.userMessage)
                session.output.emit(json) {
                    found.isEmpty ? "No contacts found." : ContactsText.lines(found).joined(separator: "\n")
                }
            }
        }
    }
}
