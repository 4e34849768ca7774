import ArgumentParser
import Foundation
import KithCore
import KithKit

extension ContactsCommand {
    struct Export: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print every contact as one vCard file: kith contacts export > all.vcf",
            discussion: """
                vCard 3.0, as Google Contacts and iPhones import it; the same cards the server's \
                address book (CardDAV) serves. Kith servers only; needs the network.
                """)
        @OptionGroup var options: ClientOptions
        @OptionGroup var monica: MonicaOptions

        func run(_ console: Console) async throws {
            try await ContactsCommand.run(options, monica, console) { session in
                session.output.write(try await session.book.exportVCards())
            }
        }
    }

    struct Import: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add the contacts of a vCard file (a Google Contacts or iPhone export).",
            discussion: """
                Every card becomes a contact, as a card from a phone does over CardDAV. A card that \
                cannot be read or that the server refuses is named by its number and line, and \
                nothing is imported. Contacts that look like people you already have (the same \
                name, email or phone number) are listed with the command that merges them. Kith \
                servers only; needs the network.
                """)
        @OptionGroup var options: ClientOptions
        @OptionGroup var monica: MonicaOptions
        @Argument(help: "The .vcf file (UTF-8).") var file: String

        func run(_ console: Console) async throws {
            try await ContactsCommand.run(options, monica, console) { session in
                guard let data = FileManager.default.contents(atPath: file),
                    let text = String(data: data, encoding: .utf8)
                else {
                    throw KithError.invalid(APIErrorDetail(.unreadableFile, "Cannot read \(file) as UTF-8 text."))
                }
                let done = try await session.book.importVCards(text)
                session.output.emit(VCardImportJSON(done)) { Self.sentence(done) }
            }
        }

        /// "Imported 12 contacts; 2 look like people you already have:" and a line per pair.
        static func sentence(_ done: MonicaVCardImport) -> String {
            var text = "Imported \(Plural.count(done.imported, "contact"))"
            let pairs = done.possibleDuplicates
            guard !pairs.isEmpty else { return text + "." }
            text += "; \(pairs.count) \(pairs.count == 1 ? "looks" : "look") like people you already have:"
            for pair in pairs {
                text +=
                    "\n  \(pair.contact.completeName) (#\(pair.contact.id)) and \(pair.existing.completeName) (#\(pair.existing.id)), \(pair.reason): kith contacts merge \(pair.existing.id) \(pair.contact.id)"
            }
            return text
        }
    }
}

/// `kith contacts import --json`: what was imported, and the pairs that look like one person.
struct VCardImportJSON: Encodable {
    struct Contact: Encodable {
        let id: Int
        let name: String
    }

    struct Pair: Encodable {
        let contact: Contact
        let existing: Contact
        let reason: String
    }

    let imported: Int
    let contacts: [Contact]
    let possibleDuplicates: [Pair]

    init(_ done: MonicaVCardImport) {
        func contact(_ c: MonicaVCardImport.Contact) -> Contact { Contact(id: c.id, name: c.completeName) }
        imported = done.imported
        contacts = done.contacts.map(contact)
        possibleDuplicates = done.possibleDuplicates.map {
            Pair(contact: contact($0.contact), existing: contact($0.existing), reason: $0.reason)
        }
    }
}
