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
