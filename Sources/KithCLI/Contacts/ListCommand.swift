import ArgumentParser
import Foundation
import KithCore
import KithKit

extension ContactsCommand {
    struct List: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "A page of your contacts (50 a page), in the server's order.",
            discussion: "Offline, the page comes from this profile's cache, with a note on stderr.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var monica: MonicaOptions
        @Option(help: "The page, from 1.") var page = 1

        static let perPage = 50

        func validate() throws {
            guard page >= 1 else { throw ValidationError("--page starts at 1.") }
        }

        func run(_ console: Console) async throws {
            try await ContactsCommand.run(options, monica, console) { session in
                await session.sendQueuedEdits()
                let listed = try await session.book.contacts(page: page, perPage: Self.perPage)
                let cachedAt = try await session.book.lastSync()
                if let reason = listed.offlineReason {
                    session.offlineNote("contacts", reason: reason, cachedAt: cachedAt)
                }
                let json = ContactPageJSON(
                    page: listed.page, lastPage: listed.lastPage, perPage: Self.perPage, total: listed.total,
                    contacts: listed.contacts.map { ContactJSON($0) }, fromCache: listed.isFromCache,
                    offlineReason: listed.offlineReason?.userMessage, cachedAt: cachedAt)
                session.output.emit(json) { Self.text(listed) }
            }
        }

        static func text(_ listed: ContactListPage) -> String {
            guard !listed.contacts.isEmpty else {
                return listed.total == 0
                    ? "No contacts yet."
                    : "No contacts on page \(listed.page): there are \(Plural.count(listed.total, "contact")), \(perPage) a page."
            }
            let first = (listed.page - 1) * perPage + 1
            let last = first + listed.contacts.count - 1
            var lines = ["Contacts \(first)-\(last) of \(listed.total) (page \(listed.page) of \(listed.lastPage))"]
            lines += ContactsText.lines(listed.contacts)
            if listed.hasMore { lines.append("More: kith contacts list --page \(listed.page + 1)") }
            return lines.joined(separator: "\n")
        }
    }
}
