import Foundation
import SQLKit

/// What every resource owned by a contact shares (notes, tasks, gifts, reminders, addresses,
/// contact fields): the account's records or one contact's, one record, saving one, deleting one.
/// What a write checks and which columns it sets is each resource's repository's.
struct ContactOwnedRepository<Record: NamesContacts>: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource
    /// The column naming the owning contact.
    var contactColumn = "contact_id"

    /// A page of the account's records, or of one of its contacts' (another account's contact is 404).
    func page(account: Int64, ofContact contactID: Int64?, _ page: PageRequest) async throws
        -> WithContacts<RecordPage<Record>>
    {
        try await self.page(account: account, ofContact: contactID, page) { _, _ in () }.found
    }

    /// A page, and what `also` reads for its records in the same read (a gift's photos).
    func page<Extra: Sendable>(
        account: Int64, ofContact contactID: Int64?, _ page: PageRequest,
        also: @escaping @Sendable (MonicaStorage, [Record]) async throws -> Extra
    ) async throws -> (found: WithContacts<RecordPage<Record>>, extra: Extra) {
        try await reading(account) { [contactColumn] storage in
            if let contactID { _ = try await storage.contacts.require(contactID) }
            let found = try await storage.table(Record.self).pageNamingContacts(
                page, filter: contactID.map { equals(contactColumn, $0) })
            return (found, try await also(storage, found.value.records))
        }
    }

    func find(account: Int64, id: Int64) async throws -> WithContacts<Record> {
        try await find(account: account, id: id) { _, _ in () }.found
    }

    /// One record, and what `also` reads for it in the same read.
    func find<Extra: Sendable>(
        account: Int64, id: Int64, also: @escaping @Sendable (MonicaStorage, [Record]) async throws -> Extra
    ) async throws -> (found: WithContacts<Record>, extra: Extra) {
        try await reading(account) { storage in
            let found = try await storage.table(Record.self).requireNamingContacts(id)
            return (found, try await also(storage, [found.value]))
        }
    }

    /// Monica's `exists` check, before a write's validation: an id nobody has is a validation
    /// error naming `attribute`, another account's is 404.
    func checkExists(account: Int64, id: Int64, attribute: String) async throws {
        _ = try await reading(account) { storage in
            try await storage.table(Record.self).existing(id, attribute: attribute)
        }
    }

    /// Creates a record (nil `id`) or changes record `id` (if it is still a version `ifMatch`
    /// names), in one transaction: `columns` checks what the write names (the record, its
    /// contacts) and gives the values to store. The saved record comes back with the contacts it names.
    func save(
        account: Int64, id: Int64?, ifMatch: IfMatch?, now: Int64,
        columns: @escaping @Sendable (MonicaStorage, MonicaTableStore<Record>) async throws -> MonicaColumns,
        then: (@Sendable (MonicaStorage, Record) async throws -> Void)? = nil
    ) async throws -> WithContacts<Record> {
        try await writing(account) { [ids] storage in
            if let id { try await storage.check(ifMatch, Record.self, id: id) }
            let table = storage.table(Record.self)
            let saved = try await table.save(id, try await columns(storage, table), now: now, ids: ids)
            try await then?(storage, saved)
            return try await table.namingContacts(saved)
        }
    }

    /// `save` for a record that names its contact by `contactID`: the record (when changed) and
    /// the contact must be the account's (else 404); `columns` are stored with the contact's id.
    func save(
        account: Int64, id: Int64?, ifMatch: IfMatch?, now: Int64, contact contactID: Int64, _ columns: MonicaColumns
    ) async throws -> WithContacts<Record> {
        try await save(account: account, id: id, ifMatch: ifMatch, now: now) { [contactColumn] storage, table in
            if let id { _ = try await table.require(id) }
            _ = try await storage.contacts.require(contactID)
            return columns.merging([contactColumn: .int(contactID)]) { $1 }
        }
    }

    /// Deletes record `id` (if it is still a version `ifMatch` names); with an `attribute`, an id
    /// nobody has is Monica's validation error naming it rather than 404. `also` runs in the same
    /// transaction, after the deletion.
    func delete(
        account: Int64, id: Int64, ifMatch: IfMatch?, attribute: String? = nil,
        also: (@Sendable (MonicaStorage, Record) async throws -> Void)? = nil
    ) async throws {
        try await writing(account) { storage in
            try await storage.check(ifMatch, Record.self, id: id)
            let table = storage.table(Record.self)
            let record = try await attribute.asyncMap { try await table.existing(id, attribute: $0) }
                .asyncOr { try await table.require(id) }
            try await table.delete(id)
            try await also?(storage, record)
        }
    }
}
