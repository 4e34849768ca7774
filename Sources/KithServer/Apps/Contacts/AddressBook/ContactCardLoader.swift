import Foundation
import SQLKit

/// Reads what contacts' vCards show: every real (not partial) contact of the account, or those
/// with the given uuids, with their gender, fields, addresses, tags and notes: one query per kind,
/// never one per contact, so an address book of thousands reads in a handful of statements.
struct ContactCardLoader {
    let storage: MonicaStorage

    /// By contact uuid (lower case).
    func records(uuids: [String]? = nil) async throws -> [String: ContactCardRecords] {
        let account = storage.account
        var query: SQLQueryString =
            "SELECT * FROM monica_contacts WHERE account_id = \(bind: account) AND is_partial = 0"
        if let uuids {
            guard !uuids.isEmpty else { return [:] }
            query = query + " AND uuid \(in: uuids)"
        }
        let contacts = try await storage.sql.raw(query + " ORDER BY id").all().map { try $0.record(ContactRecord.self) }
        guard !contacts.isEmpty else { return [:] }
        let ids = contacts.map(\.id)
        // A whole address book reads each kind for the account; a few cards, for those contacts.
        let wanted = uuids == nil ? nil : ids
        let genders = Dictionary(
            uniqueKeysWithValues: try await storage.table(GenderRecord.self).all().map { ($0.id, $0) })
        let types = Dictionary(
            uniqueKeysWithValues: try await storage.table(ContactFieldTypeRecord.self).all().map { ($0.id, $0) })
        let fields = Dictionary(grouping: try await owned(ContactFieldRecord.self, wanted), by: \.contactID)
        let addresses = Dictionary(grouping: try await owned(AddressRecord.self, wanted), by: \.contactID)
        let notes = Dictionary(grouping: try await owned(NoteRecord.self, wanted), by: \.contactID)
        let tags = Dictionary(grouping: try await storage.details.tags(of: ids), by: \.0)
        var records: [String: ContactCardRecords] = [:]
        for contact in contacts {
            records[contact.uuid.lowercased()] = ContactCardRecords(
                contact: contact, gender: contact.genderID.flatMap { genders[$0] },
                fields: (fields[contact.id] ?? []).compactMap { field in
                    types[field.contactFieldTypeID].map { (field, $0) }
                },
                addresses: addresses[contact.id] ?? [], tags: (tags[contact.id] ?? []).map(\.1),
                notes: (notes[contact.id] ?? []).sorted { ($0.createdAt ?? 0, $0.id) < ($1.createdAt ?? 0, $1.id) })
        }
        return records
    }

    /// The account's rows of a contact-owned table, all or those of `contactIDs`, by id.
    private func owned<Record: MonicaRecord>(_ type: Record.Type, _ contactIDs: [Int64]?) async throws -> [Record] {
        let table = storage.table(type)
        if let contactIDs { return try await table.all(where: "contact_id", in: contactIDs) }
        return try await table.all()
    }
}
