import ArgumentParser
import Foundation
import KithCore
import KithKit

extension ContactsCommand {
    struct Merge: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Merges two contacts: the first is kept, with everything on the second; the second is deleted.",
            discussion: """
                The kept contact's blank names, birthday and other facts are filled from the second; \
                every email, phone, address, note, task, reminder, gift, tag, activity and \
                relationship of the second moves to it. One change on the server: all of it or \
                nothing. Kith servers only (a Monica server has no merge); needs the network.
                """)
        @OptionGroup var options: ClientOptions
        @OptionGroup var monica: MonicaOptions
        @Argument(help: "The id of the contact to keep.") var kept: Int
        @Argument(help: "The id of the contact merged into it, then deleted.") var other: Int

        func run(_ console: Console) async throws {
            try await ContactsCommand.run(options, monica, console) { session in
                let merged: ContactDetails
                do {
                    merged = try await session.book.merge(other, into: kept)
                } catch MonicaClientError.notFound {
                    throw KithError.invalid(
                        APIErrorDetail(
                            .notFound,
                            "No contacts \(kept) and \(other) to merge here (`kith contacts list` shows the ids; a Monica server cannot merge)."
                        ))
                }
                let edits = try await session.book.pendingAddressEdits()
                let pending = Set(edits.map(\.addressID))
                session.output.emit(ContactDetailsJSON(merged, pending: pending, pendingEdits: edits.count)) {
                    "Merged contact \(other) into \(merged.contact.displayName) (\(kept)); contact \(other) is deleted.\n\n"
                        + ContactsText.details(merged, pending: pending)
                }
            }
        }
    }
}
