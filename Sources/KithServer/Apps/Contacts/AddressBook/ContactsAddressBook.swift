import Foundation
import KithCore

/// An account's contacts as one CardDAV address book (RFC 6352): every real contact as a vCard,
/// 3.0 unless the client asks for 4.0. A card a client writes goes through `ContactCardChange`
/// (`/api`'s rules) into the contact, its fields, addresses, tags and notes.
struct ContactsAddressBook: DAVCollection {
    let user: AuthenticatedUser
    let account: MonicaAccount
    let database: KithDatabase
    let contacts: ContactRepository
    let clock: Clock

    static let name = "contacts"
    /// A card with a photo is the largest a phone sends; a megabyte holds a large one.
    static let largestCard = 1 << 20

    var collectionKey: String { "contacts:" + user.id.lowercased }
    var owner: DAVCollectionOwner { .user(user.id.lowercased) }
    var memberSuffix: String { ".vcf" }
    var path: String { DAVTarget.addressBookHomePath(user) + Self.name + "/" }
    var displayName: String { "Contacts" }
    var resourceType: XMLName { DAVName.card("addressbook") }
    var memberContentType: String { "text/vcard; charset=utf-8" }
    var dataProperty: XMLName { DAVName.addressData }
    var validDataPrecondition: XMLName { DAVName.validAddressData }
    var maximumMemberSize: Int { Self.largestCard }
    var servesClientBodies: Bool { true }

    func collectionProperties() -> [XMLName: XMLNode] {
        let supported = DAVName.card("supported-address-data")
        let maxSize = DAVName.maxResourceSizeCard
        return [
            supported: XMLNode(
                supported,
                children: ["3.0", "4.0"].map {
                    XMLNode(
                        DAVName.card("address-data-type"),
                        attributes: [("content-type", "text/vcard"), ("version", $0)])
                }),
            maxSize: XMLNode(maxSize, text: String(Self.largestCard)),
            DAVName.dav("getcontenttype"): .dav("getcontenttype", text: "httpd/unix-directory"),
        ]
    }

    // MARK: Source

    func version() async throws -> String {
        try await database.read { [account] sql in
            let version = try await sql.raw(
                "SELECT cards_version FROM monica_accounts WHERE id = \(bind: account.id)"
            ).first()?.decode(column: "cards_version", as: Int64.self)
            return String(version ?? 0)
        }
    }

    func contents() async throws -> [String: String] {
        try await contacts.reading(account.id) { storage in
            try await ContactCardLoader(storage: storage).records().mapValues {
                ContactCardMapping.card($0).write(.v3)
            }
        }
    }

    // MARK: Members

    func bodies(of items: [DAVItem], format: DAVDataFormat) async throws -> [String: String] {
        let records = try await contacts.reading(account.id) { storage in
            try await ContactCardLoader(storage: storage).records(uuids: items.map(\.objectID))
        }
        var bodies: [String: String] = [:]
        for item in items {
            guard let found = records[item.objectID] else { continue }
            var card = ContactCardMapping.merging(
                ContactCardMapping.card(found), extras: try? ContactCard.parse(item.extras).first)
            card.uid = item.uid
            bodies[item.name] = card.write(format == .vCard4 ? .v4 : .v3)
        }
        return bodies
    }

    func matches(_ filter: DAVXMLElement, body: String) throws(DAVError) -> Bool {
        try CardFilter(filter).matches(body)
    }

    func write(_ body: [UInt8], name: String, existing: DAVItem?, state: DAVCollectionState) async throws -> DAVWrite {
        guard let text = String(bytes: body, encoding: .utf8) else {
            throw DAVError(.badRequest, "The vCard is not UTF-8 text.", precondition: validDataPrecondition)
        }
        let cards: [ContactCard]
        do {
            cards = try ContactCard.parse(text)
        } catch {
            throw DAVError(
                .badRequest, "The vCard could not be read: \(error.message)", precondition: validDataPrecondition)
        }
        guard cards.count == 1, var card = cards.first else {
            throw DAVError(
                .badRequest, "Send one vCard per contact (this body holds \(cards.count)).",
                precondition: validDataPrecondition)
        }
        if card.uid.trimmedWhitespace.isEmpty {
            card.uid = existing?.uid ?? String(name.dropLast(name.hasSuffix(memberSuffix) ? memberSuffix.count : 0))
        }
        if let other = try await state.member(uid: card.uid), other.name != name {
            throw DAVError.forbidden(
                "Another contact in this address book already has the UID \(card.uid).",
                precondition: DAVName.noUIDConflict)
        }
        let change: ContactCardChange
        do {
            let (genders, types) = try await contacts.reading(account.id) { storage in
                (
                    try await storage.table(GenderRecord.self).all(),
                    try await storage.table(ContactFieldTypeRecord.self).all()
                )
            }
            change = try ContactCardChange(
                card, genders: genders, types: types, today: MonicaDate.today(nowMillis: clock.nowMillis))
        } catch let error as MonicaError {
            throw DAVError.forbidden(error.sentence, precondition: validDataPrecondition)
        }
        let saved: (uuid: String, card: String, cardsVersion: Int64)
        do {
            saved = try await contacts.save(
                change, account: account.id, uuid: existing?.objectID, preferredUUID: card.uid, now: clock.nowMillis)
        } catch let error as MonicaError where error.status == .notFound {
            throw DAVError.stale
        }
        var leftovers = change.leftovers
        leftovers.uid = card.uid
        let hasLeftovers = leftovers != ContactCard(uid: card.uid)
        return DAVWrite(
            objectID: saved.uuid, uid: card.uid, extras: hasLeftovers ? leftovers.write(.v4) : "",
            text: DAVWrittenText(
                text: saved.card, versionBefore: String(saved.cardsVersion - 1),
                versionAfter: String(saved.cardsVersion)))
    }

    func delete(_ item: DAVItem) async throws {
        try await contacts.delete(account: account, uuid: item.objectID)
    }
}
