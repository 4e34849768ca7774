import Foundation
import KithCore

/// A contact field's fields as a write gives them.
struct ContactFieldInput: Sendable {
    let contactID: Int64
    let typeID: Int64
    let data: String
}

/// Contact fields with their types, and the contacts they belong to.
struct ContactFieldsView: Sendable {
    var fields: RecordPage<ContactFieldRecord>
    var types: [Int64: ContactFieldTypeRecord]
    var contacts: WithContacts<Void>
}

struct ContactFieldRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource

    /// A page of a contact's fields (another account's contact is 404).
    func page(account: Int64, ofContact contactID: Int64, _ page: PageRequest) async throws -> ContactFieldsView {
        try await reading(account) { storage in
            _ = try await storage.contacts.require(contactID)
            let fields = try await storage.table(ContactFieldRecord.self).page(
                page, filter: equals("contact_id", contactID))
            return try await view(fields, storage)
        }
    }

    func find(account: Int64, id: Int64) async throws -> ContactFieldsView {
        try await reading(account) { storage in
            let field = try await storage.table(ContactFieldRecord.self).require(id)
            return try await view(RecordPage(records: [field], total: 1), storage)
        }
    }

    /// Creates a field (nil `id`) or changes field `id` (if it is still a version `ifMatch` names);
    /// an email changed or moved changes what search finds, for both contacts.
    func save(account: Int64, id: Int64?, ifMatch: IfMatch?, _ input: ContactFieldInput, now: Int64) async throws
        -> ContactFieldsView
    {
        try await writing(account) { storage in
            if let id { try await storage.check(ifMatch, ContactFieldRecord.self, id: id) }
            let fields = storage.table(ContactFieldRecord.self)
            let previous = try await id.asyncMap { try await fields.existing($0, attribute: "contact field id") }
            _ = try await storage.contacts.existing(input.contactID, attribute: "contact id")
            let type = try await storage.table(ContactFieldTypeRecord.self).existing(
                input.typeID, attribute: "contact field type id")
            // The type decides what the value must look like, so the check is made where the
            // type is read, in the write's transaction.
            if let problem = ContactValueFormats.problem(kind: type.type, value: input.data, attribute: "data") {
                throw MonicaError.invalid(problem)
            }
            let values: MonicaColumns = [
                "contact_id": .int(input.contactID), "contact_field_type_id": .int(input.typeID),
                "data": .text(input.data),
            ]
            let saved = try await fields.save(id, values, now: now, ids: ids)
            for contact in Set([input.contactID, previous?.contactID].compactMap { $0 }) {
                try await storage.refreshSearchText(of: contact)
            }
            return try await view(RecordPage(records: [saved], total: 1), storage)
        }
    }

    func delete(account: Int64, id: Int64, ifMatch: IfMatch?) async throws {
        try await ContactOwnedRepository<ContactFieldRecord>(database: database, ids: ids).delete(
            account: account, id: id, ifMatch: ifMatch, attribute: "contact field id"
        ) { storage, field in try await storage.refreshSearchText(of: field.contactID) }
    }

    private func view(_ fields: RecordPage<ContactFieldRecord>, _ storage: MonicaStorage) async throws
        -> ContactFieldsView
    {
        let types = try await storage.table(ContactFieldTypeRecord.self).byID(fields.records.map(\.contactFieldTypeID))
        let contacts = try await storage.details.summaries(fields.records.map(\.contactID))
        return ContactFieldsView(fields: fields, types: types, contacts: WithContacts(value: (), contacts: contacts))
    }
}
