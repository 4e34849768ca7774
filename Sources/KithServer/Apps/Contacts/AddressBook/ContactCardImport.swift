import Foundation
import KithCore

/// A file of vCards (a Google Contacts or iPhone export) made contacts, all in one transaction,
/// each card read exactly as a phone's card is over CardDAV (`ContactCardChange`, the same
/// repository calls), and the contacts already there that the new ones look like.
struct ContactCardImport: Sendable {
    /// A new contact and an existing one that look like the same person.
    struct Duplicate: Sendable {
        let imported: ContactRecord
        let existing: ContactRecord
        /// "the same name", "the same email", "the same phone number".
        let reason: String
    }

    let imported: [ContactRecord]
    let duplicates: [Duplicate]
}

extension ContactRepository {
    /// Imports `cards` (read from `text`, to number them): every card, or none. A card the rules
    /// refuse throws `/api`'s 422 naming the card ("Card 3 (line 41): …").
    func importCards(_ cards: [ContactCard], from text: String, account: Int64, now: Int64) async throws
        -> ContactCardImport
    {
        defer { geocoding.wakeRunner() }
        return try await writing(account) { storage in
            let genders = try await storage.table(GenderRecord.self).all()
            let types = try await storage.table(ContactFieldTypeRecord.self).all()
            let today = MonicaDate.today(nowMillis: now)
            let people = try await PeopleAlready(storage)
            let numbering = CardNumbering(text)
            var imported: [ContactRecord] = []
            var duplicates: [ContactCardImport.Duplicate] = []
            for (index, card) in cards.enumerated() {
                let change: ContactCardChange
                do {
                    change = try ContactCardChange(card, genders: genders, types: types, today: today)
                } catch let error as MonicaError {
                    throw MonicaError.invalid(
                        "\(numbering.name(ofCard: index + 1)): \(error.sentence) Nothing was imported: correct the card, or remove it, and import the file again."
                    )
                }
                let contact = try await saveCard(change, uuid: nil, preferredUUID: card.uid, storage, now: now)
                imported.append(contact)
                if let (existing, reason) = people.match(contact, change, types: types) {
                    duplicates.append(.init(imported: contact, existing: existing, reason: reason))
                }
            }
            return ContactCardImport(imported: imported, duplicates: duplicates)
        }
    }
}

/// Where each card of a file begins, to name a card by its number and line.
struct CardNumbering {
    /// The line (1-based, as the file counts them) of each `BEGIN:VCARD`, in order.
    let beginLines: [Int]

    init(_ text: String) {
        // Lines end in CRLF or LF ("\r\n" is one Character, so split on newlines, not on "\n").
        beginLines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated().compactMap {
            $0.element.trimmingCharacters(in: .whitespacesAndNewlines).uppercased() == "BEGIN:VCARD"
                ? $0.offset + 1 : nil
        }
    }

    /// "Card 3 (line 41)": the card's number, and `line` (by default the line it begins on);
    /// "The file (line 1)" before any card begins.
    func name(ofCard number: Int, line: Int? = nil) -> String {
        let line = line ?? (beginLines.indices.contains(number - 1) ? beginLines[number - 1] : nil)
        let beforeAnyCard = beginLines.first.map { (line ?? $0) < $0 } ?? true
        let what = beforeAnyCard ? "The file" : "Card \(number)"
        return line.map { "\(what) (line \($0))" } ?? what
    }

    /// The number of the card holding `line`.
    func card(holding line: Int) -> Int { max(1, beginLines.filter { $0 <= line }.count) }
}

/// The account's contacts before an import: by folded full name, email, and phone digits.
struct PeopleAlready {
    private var byName: [String: ContactRecord] = [:]
    private var byEmail: [String: ContactRecord] = [:]
    private var byPhone: [String: ContactRecord] = [:]

    init(_ storage: MonicaStorage) async throws {
        let contacts = try await storage.contacts.all().filter { !$0.isPartial }
        let byID = Dictionary(uniqueKeysWithValues: contacts.map { ($0.id, $0) })
        for contact in contacts {
            if let key = Self.nameKey(contact) { byName[key] = byName[key] ?? contact }
        }
        let types = Dictionary(
            uniqueKeysWithValues: try await storage.table(ContactFieldTypeRecord.self).all().map { ($0.id, $0.type) })
        for field in try await storage.table(ContactFieldRecord.self).all() {
            guard let contact = byID[field.contactID] else { continue }
            switch (types[field.contactFieldTypeID] ?? nil) ?? "" {
            case "email": byEmail[Self.emailKey(field.data)] = byEmail[Self.emailKey(field.data)] ?? contact
            case "phone":
                if let key = Self.phoneKey(field.data) { byPhone[key] = byPhone[key] ?? contact }
            default: break
            }
        }
    }

    /// The first existing contact `contact` looks like, and why.
    func match(_ contact: ContactRecord, _ change: ContactCardChange, types: [ContactFieldTypeRecord])
        -> (ContactRecord, String)?
    {
        if let key = Self.nameKey(contact), let found = byName[key] { return (found, "the same name") }
        let kinds = Dictionary(uniqueKeysWithValues: types.map { ($0.id, $0.type) })
        for field in change.fields {
            switch (kinds[field.typeID] ?? nil) ?? "" {
            case "email": if let found = byEmail[Self.emailKey(field.data)] { return (found, "the same email") }
            case "phone":
                if let key = Self.phoneKey(field.data), let found = byPhone[key] {
                    return (found, "the same phone number")
                }
            default: break
            }
        }
        return nil
    }

    /// First and last name, case and accents aside ("Zoë Smith" is "zoe smith").
    private static func nameKey(_ contact: ContactRecord) -> String? {
        let name = [contact.firstName, contact.lastName ?? ""].joined(separator: " ")
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).trimmedWhitespace
        return name.isEmpty ? nil : name
    }

    private static func emailKey(_ email: String) -> String { CredentialRules.normalizedEmail(email) }

    /// The last 9 digits: the same number written with or without its country code.
    private static func phoneKey(_ phone: String) -> String? {
        let digits = phone.filter { ("0"..."9").contains($0) }
        return digits.count >= 6 ? String(digits.suffix(9)) : nil
    }
}
