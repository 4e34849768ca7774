import ArgumentParser
import Foundation
import KithCore
import KithKit

extension ContactsCommand {
    struct Sync: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Send the address edits made offline, then refresh the offline cache (every contact, the countries).",
            discussion:
                "Waits out the server's rate limit (Monica allows 60 requests a minute) a few times before giving up.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var monica: MonicaOptions

        func run(_ console: Console) async throws {
            try await ContactsCommand.run(options, monica, console) { session in
                await session.client.setRateLimitPatience(5)
                let summary: ContactSyncSummary
                do {
                    summary = try await session.book.sync()
                } catch let error as MonicaClientError where error.isRetryable {
                    let waiting = try await session.book.pendingAddressEdits().count
                    guard waiting > 0 else { throw error }
                    throw MonicaClientError.invalid(
                        "\(error.userMessage) \(Plural.count(waiting, "address edit")) still saved on this device, to be sent later."
                    )
                }
                let pending = try await session.book.pendingAddressEdits().count
                let json = ContactSyncJSON(
                    contacts: summary.contacts, countries: summary.countries,
                    addressEditsSent: summary.addressEditsSent,
                    addressEditsRefused: summary.addressEditsRefused.map(ContactSyncJSON.Refusal.init),
                    pendingAddressEdits: pending, syncedAt: try await session.book.lastSync())
                session.output.emit(json) {
                    var lines = [
                        "Synced \(Plural.count(summary.contacts, "contact")) and \(Plural.count(summary.countries, "country", "countries"))."
                    ]
                    if summary.addressEditsSent > 0 {
                        lines.append("Sent \(Plural.count(summary.addressEditsSent, "address edit")).")
                    }
                    for refused in summary.addressEditsRefused {
                        lines.append("Refused by the server: \(ContactsText.refusal(refused))")
                    }
                    if pending > 0 {
                        lines.append("\(Plural.count(pending, "address edit")) still waiting to be sent.")
                    }
                    return lines.joined(separator: "\n")
                }
            }
        }
    }

    struct Status: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Where contacts come from, what the cache holds, and the address edits waiting to be sent.",
            discussion: "Reads this profile only: no request is made.")
        @OptionGroup var options: ClientOptions
        @Flag(help: "Forget the address edits the server refused, once read.") var dismiss = false

        func run(_ console: Console) async throws {
            try await options.run(console) { profile, output in
                guard let status = try await Self.status(profile, dismissing: dismiss) else {
                    let json = ContactsStatusJSON(source: "none")
                    output.emit(json) {
                        "Not connected: sign in to a Kith server (kith account login EMAIL), or connect to Monica (kith contacts connect --monica-url URL)."
                    }
                    return
                }
                output.emit(status) { Self.text(status) }
            }
        }

        /// The profile's contacts as they stand, without a request; nil when nothing is set up.
        static func status(_ profile: Profile, dismissing: Bool = false) async throws -> ContactsStatusJSON? {
            guard let local = try ContactsSession.local(profile) else { return nil }
            var status = local.status
            guard let book = try await local.openCache() else {
                status.cachedContacts = 0
                status.pendingAddressEdits = 0
                status.refusedAddressEdits = []
                return status
            }
            status.cachedContacts = try await book.cachedContacts(page: 1, perPage: 1).total
            status.lastSync = try await book.lastSync()
            status.pendingAddressEdits = try await book.pendingAddressEdits().count
            status.refusedAddressEdits = try await book.refusedAddressEdits().map(ContactSyncJSON.Refusal.init)
            if dismissing { try await book.dismissRefusedAddressEdits() }
            return status
        }

        static func text(_ status: ContactsStatusJSON) -> String {
            var lines: [String] = []
            switch status.source {
            case "monica":
                lines.append(
                    "Monica at \(status.server ?? "?") as \(status.user ?? "?") (token \(status.maskedToken ?? "?"))")
            default:
                lines.append("The Kith server at \(status.server ?? "?"), signed in as \(status.user ?? "?")")
            }
            let count = Plural.count(status.cachedContacts ?? 0, "contact")
            lines.append(
                "Cache: \(count)"
                    + (status.lastSync.map {
                        ", last synced \(WireCoding.formatTimestamp($0)) (\(RelativeDate.text($0)))"
                    } ?? ", never synced"))
            lines.append("Address edits waiting to be sent: \(status.pendingAddressEdits ?? 0)")
            for refused in status.refusedAddressEdits ?? [] {
                lines.append(
                    "Refused by the server on \(WireCoding.formatTimestamp(refused.failedAt)): \(refused.action) of address #\(refused.addressID) (contact \(refused.contactID)): \(refused.message)"
                )
            }
            return lines.joined(separator: "\n")
        }
    }
}
