import ArgumentParser
import Foundation
import KithCore
import KithKit

extension ContactsCommand {
    struct Show: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "A contact's details: names, work, emails, phones, tags, relationships, addresses, notes, tasks, activities, gifts, reminders.",
            discussion: "Offline, the details last fetched on this profile are shown, with a note on stderr.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var monica: MonicaOptions
        @Argument(help: "The contact's id (as `kith contacts list` shows it).") var id: Int

        func run(_ console: Console) async throws {
            try await ContactsCommand.run(options, monica, console) { session in
                await session.sendQueuedEdits()
                let details = try await session.contactDetails(id)
                if let reason = details.offlineReason {
                    let cachedAt = details.fetchedAt == .distantPast ? nil : details.fetchedAt
                    session.offlineNote("\(details.contact.displayName)'s details", reason: reason, cachedAt: cachedAt)
                }
                let edits = try await session.book.pendingAddressEdits()
                let pending = Set(edits.map(\.addressID))
                let json = ContactDetailsJSON(details, pending: pending, pendingEdits: edits.count)
                session.output.emit(json) {
                    var text = ContactsText.details(details, pending: pending)
                    if !edits.isEmpty {
                        text +=
                            "\n\n\(Plural.count(edits.count, "address edit")) waiting to be sent (kith contacts sync)."
                    }
                    return text
                }
            }
        }
    }

    struct Addresses: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "A contact's addresses, formatted as their countries write them.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var monica: MonicaOptions
        @Argument(help: "The contact's id.") var id: Int

        func run(_ console: Console) async throws {
            try await ContactsCommand.run(options, monica, console) { session in
                await session.sendQueuedEdits()
                var name: String
                var addresses: [MonicaAddress]
                var fromCache = false
                do {
                    let details = try await session.contactDetails(id)
                    name = details.contact.displayName
                    addresses = details.addresses
                    if let reason = details.offlineReason {
                        fromCache = true
                        let cachedAt = details.fetchedAt == .distantPast ? nil : details.fetchedAt
                        session.offlineNote("\(name)'s addresses", reason: reason, cachedAt: cachedAt)
                    }
                } catch let error as MonicaClientError where error.isRetryable {
                    // Not cached as a contact, but addresses added here offline may be.
                    addresses = try await session.book.addresses(of: id)
                    guard let first = addresses.first else { throw error }
                    name = first.contact?.displayName ?? "Contact \(id)"
                    fromCache = true
                    session.offlineNote("\(name)'s addresses", reason: error, cachedAt: nil)
                }
                let pending = try await session.pendingAddressIDs()
                let json = AddressListJSON(
                    contactID: id, contactName: name, addresses: addresses.map { AddressJSON($0, pending: pending) },
                    fromCache: fromCache)
                session.output.emit(json) {
                    guard !addresses.isEmpty else {
                        return
                            "\(name) has no addresses. Add one: kith contacts address add \(id) --street … --city … --country CODE"
                    }
                    return addresses.map { ContactsText.address($0, pending: pending) }.joined(separator: "\n")
                }
            }
        }
    }
}

extension ContactsSession {
    /// A contact's details, fresh or (offline) cached; an unknown id reads as such.
    func contactDetails(_ id: Int) async throws -> ContactDetails {
        do {
            return try await book.details(of: id)
        } catch MonicaClientError.notFound {
            throw KithError.invalid(APIErrorDetail(.notFound, "No contact with id \(id)."))
        }
    }
}
