import Foundation
import KithCore
import SQLKit

extension ContactRepository {
    /// Creates a contact (`uuid` nil) or changes contact `uuid` as a client's vCard says, all in
    /// one transaction: the contact, its fields, addresses, tags and notes, its birthday reminder
    /// and search words. What the card leaves out that phones cannot show (gender, a death) stays
    /// (`ContactCardChange`). The contact's uuid, its card as the address book writes it and the
    /// account's `cards_version` after the write, all from the write's transaction; 404 when
    /// contact `uuid` is gone.
    func save(_ change: ContactCardChange, account: Int64, uuid: String?, preferredUUID: String?, now: Int64)
        async throws -> (uuid: String, card: String, cardsVersion: Int64)
    {
        defer { geocoding.wakeRunner() }
        let ((uuid, card), version) = try await writingCards(account) { storage in
            let contact = try await saveCard(change, uuid: uuid, preferredUUID: preferredUUID, storage, now: now)
            let written = contact.uuid.lowercased()
            let records = try await ContactCardLoader(storage: storage).records(uuids: [written])
            return (written, records[written].map { ContactCardMapping.card($0).write(.v3) } ?? "")
        }
        return (uuid, card, version)
    }

    /// The same inside the caller's transaction (an import writes many cards in one): the contact
    /// as it is afterwards.
    func saveCard(
        _ change: ContactCardChange, uuid: String?, preferredUUID: String?, _ storage: MonicaStorage, now: Int64
    ) async throws -> ContactRecord {
        let account = storage.account
        var existing: ContactRecord?
        if let uuid {
            existing = try await storage.sql.raw(
                "SELECT * FROM monica_contacts WHERE account_id = \(bind: account) AND uuid = \(bind: uuid)"
            ).first()?.record(ContactRecord.self)
            guard existing != nil else { throw MonicaError.notFound }
        }
        var contactChange = ContactChange(
            birthdate: change.birthdate ?? .unknown,
            reminders: [])
        contactChange.names = change.names
        contactChange.genderID = change.genderID
        contactChange.death = change.death
        let birthday = contactChange.birthdate
        let birthdayMoved =
            existing.map {
                let stored = $0.birthdateValue
                return stored.day != birthday.day || stored.isAgeBased != birthday.isAgeBased
                    || stored.isYearUnknown != birthday.isYearUnknown
            } ?? true
        if birthdayMoved {
            contactChange.reminders = [.birthday(birthday.isAgeBased ? nil : birthday.day)]
        }
        try await checkGender(contactChange, storage)
        var values = Self.columns(of: contactChange, creating: existing == nil)
        values["job"] = .text(change.job)
        values["company"] = .text(change.company)
        var contact: ContactRecord
        if let existing {
            contact = try await storage.contacts.update(existing.id, values, now: now)
        } else {
            values["uuid"] = .text(try await Self.newUUID(preferredUUID, storage) ?? ids.uuid().lowercased)
            values["avatar_color"] = .text(ids.pick(ContactRecord.avatarColors, or: "#b3d5fe"))
            values["is_active"] = .bool(true)
            values["is_starred"] = .bool(false)
            values["is_partial"] = .bool(false)
            values["search_text"] = .text("")
            contact = try await storage.contacts.insert(values, now: now)
        }
        for reminder in contactChange.reminders {
            contact = try await replaceReminder(reminder, of: contact, storage, now: now)
        }
        try await Self.replaceFields(change.fields, of: contact.id, storage, ids: ids, now: now)
        try await replaceAddresses(change.addresses, of: contact.id, storage, now: now)
        try await Self.replaceTags(change.tags, of: contact.id, storage, now: now)
        try await Self.replaceNotes(change.note, of: contact.id, storage, ids: ids, now: now)
        try await storage.refreshSearchText(of: contact)
        return contact
    }

    /// Deletes contact `uuid` (and the account's "me" if it was); nothing when it is gone already.
    func delete(account: MonicaAccount, uuid: String) async throws {
        let id = try await reading(account.id) { storage in
            try await storage.sql.raw(
                "SELECT id FROM monica_contacts WHERE account_id = \(bind: account.id) AND uuid = \(bind: uuid)"
            ).first()?.decode(column: "id", as: Int64.self)
        }
        guard let id else { return }
        try await delete(account: account, id: id, ifMatch: nil)
    }

    /// The card's UID as the contact's uuid, when it is one and no contact of the account has it.
    private static func newUUID(_ preferred: String?, _ storage: MonicaStorage) async throws -> String? {
        guard let preferred, let uuid = UUID(uuidString: preferred)?.uuidString.lowercased() else { return nil }
        let taken = try await storage.sql.raw(
            "SELECT id FROM monica_contacts WHERE account_id = \(bind: storage.account) AND uuid = \(bind: uuid)"
        ).first()
        return taken == nil ? uuid : nil
    }

    /// Keeps the fields the card still has (same type and value), deletes the others, adds the new.
    private static func replaceFields(
        _ wanted: [(typeID: Int64, data: String)], of contactID: Int64, _ storage: MonicaStorage, ids: IdentifierSource,
        now: Int64
    ) async throws {
        let table = storage.table(ContactFieldRecord.self)
        var missing = wanted
        for field in try await table.all(where: "contact_id", in: [contactID]) {
            if let index = missing.firstIndex(where: { $0.typeID == field.contactFieldTypeID && $0.data == field.data })
            {
                missing.remove(at: index)
            } else {
                try await table.delete(field.id)
            }
        }
        for field in missing {
            try await table.insert(
                [
                    "uuid": .text(ids.text()), "contact_id": .int(contactID),
                    "contact_field_type_id": .int(field.typeID),
                    "data": .text(field.data),
                ], now: now)
        }
    }

    /// Keeps the addresses the card still has (the same typed parts), deletes the others, adds the
    /// new, each located from its text as `/api` locates it. The card carries typed coordinates
    /// only (`ContactCardMapping`), so a kept address keeps its geocoded place.
    private func replaceAddresses(_ wanted: [MonicaColumns], of contactID: Int64, _ storage: MonicaStorage, now: Int64)
        async throws
    {
        let table = storage.table(AddressRecord.self)
        var missing = wanted
        for address in try await table.all(where: "contact_id", in: [contactID]) {
            let stored: MonicaColumns = [
                "name": .text(address.name), "street": .text(address.street), "city": .text(address.city),
                "province": .text(address.province), "postal_code": .text(address.postalCode),
                "country": .text(address.country), "latitude": .double(address.latitude),
                "longitude": .double(address.longitude),
            ]
            if let index = missing.firstIndex(of: stored) {
                missing.remove(at: index)
            } else {
                try await table.delete(address.id)
            }
        }
        for var address in missing {
            address["uuid"] = .text(ids.text())
            address["contact_id"] = .int(contactID)
            address.merge(geocoding.columns(Self.postal(address), current: nil)) { typed, _ in typed }
            let saved = try await table.insert(address, now: now)
            try await geocoding.queueIfWaiting(saved, storage.sql, now: now)
        }
    }

    /// The parts of an address's columns, as a search reads them.
    private static func postal(_ columns: MonicaColumns) -> PostalAddress {
        func number(_ name: String) -> Double? { if case .double(let value) = columns[name] { value } else { nil } }
        return PostalAddress(
            street: columns["street"]?.textValue, city: columns["city"]?.textValue,
            province: columns["province"]?.textValue, postalCode: columns["postal_code"]?.textValue,
            countryCode: columns["country"]?.textValue, latitude: number("latitude"), longitude: number("longitude"))
    }

    private static func replaceTags(_ names: [String], of contactID: Int64, _ storage: MonicaStorage, now: Int64)
        async throws
    {
        let current = try await storage.details.tags(of: [contactID]).map(\.1)
        for tag in current where !names.contains(tag.name) {
            try await storage.sql.delete(from: "monica_contact_tags").where("contact_id", .equal, contactID)
                .where("tag_id", .equal, tag.id).run()
        }
        try await TagRepository.attach(
            names.filter { name in !current.contains { $0.name == name } }, to: contactID, storage, now: now)
    }

    /// The card's NOTE holds every note, oldest first, a blank line apart: a note whose text is
    /// still in it stays (with its date and star), one whose text is gone goes, and what is left
    /// over becomes one new note.
    private static func replaceNotes(
        _ text: String?, of contactID: Int64, _ storage: MonicaStorage, ids: IdentifierSource, now: Int64
    ) async throws {
        let table = storage.table(NoteRecord.self)
        var rest = text ?? ""
        for note in try await table.all(where: "contact_id", in: [contactID]) {
            let body = note.body.trimmedWhitespace
            if !body.isEmpty, let range = rest.range(of: body) {
                rest.removeSubrange(range)
            } else {
                try await table.delete(note.id)
            }
        }
        let added = rest.trimmedWhitespace
        guard !added.isEmpty else { return }
        try await table.insert(
            [
                "uuid": .text(ids.text()), "contact_id": .int(contactID), "body": .text(added),
                "is_favorited": .bool(false),
            ],
            now: now)
    }
}
