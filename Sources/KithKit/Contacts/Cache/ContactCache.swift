import Foundation
import GRDB
import KithCore

/// The device's copy of one Monica user's contacts: contacts,
/// their details and addresses, the country list, and the address edits waiting to be sent. One
/// SQLite database (GRDB, WAL) per server and user; every method is one transaction.
final class ContactCache: Sendable {
    let writer: any DatabaseWriter
    /// Where the database lives; nil when in memory.
    let url: URL?

    init(url: URL?) throws {
        self.url = url
        do {
            writer = try DeviceDatabase.open(at: url, migrator: ContactCacheSchema.migrator())
        } catch {
            throw MonicaClientError.storage("\(error)")
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try storageErrors { try writer.read(body) }
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try storageErrors { try writer.write(body) }
    }

    private func storageErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw MonicaClientError.storage(error.description)
        }
    }

    // MARK: Contacts

    /// Replaces every cached contact with `contacts` (Monica's whole list, in its order): contacts
    /// gone from the server go with their details and addresses. Addresses of contacts in
    /// `keepingAddressesOf` (edits still queued) stay as this device has them.
    func replaceContacts(_ contacts: [MonicaContact], keepingAddressesOf pending: Set<Int>, at date: Date) throws {
        try write { db in
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS seen (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "DELETE FROM seen")
            for (position, contact) in contacts.enumerated() {
                try Self.upsert(contact, position: position, at: date, db)
                try db.execute(sql: "INSERT OR IGNORE INTO seen (id) VALUES (?)", arguments: [contact.id])
                if !pending.contains(contact.id) {
                    try Self.replaceAddresses(of: contact.id, with: contact.addresses, db)
                }
            }
            for table in ["contact_details": "contact_id", "addresses": "contact_id", "contacts": "id"] {
                try db.execute(sql: "DELETE FROM \(table.key) WHERE \(table.value) NOT IN (SELECT id FROM seen)")
            }
            try db.execute(sql: "DELETE FROM seen")
            try db.execute(
                sql: "UPDATE cache_state SET contacts_synced_at = ?, contacts_generation = contacts_generation + 1",
                arguments: [date.timeIntervalSince1970])
        }
    }

    /// Keeps contacts seen on one page of Monica's list (or a detail page) without forgetting others.
    func saveContacts(
        _ contacts: [MonicaContact], firstPosition: Int?, keepingAddressesOf pending: Set<Int>, at date: Date
    )
        throws
    {
        try write { db in
            for (offset, contact) in contacts.enumerated() {
                let known = try Int.fetchOne(
                    db, sql: "SELECT position FROM contacts WHERE id = ?", arguments: [contact.id])
                let position = firstPosition.map { $0 + offset } ?? known ?? Int.max / 2
                try Self.upsert(contact, position: position, at: date, db)
                if !pending.contains(contact.id) {
                    try Self.replaceAddresses(of: contact.id, with: contact.addresses, db)
                }
            }
            try db.execute(sql: "UPDATE cache_state SET contacts_generation = contacts_generation + 1")
        }
    }

    func removeContact(_ id: Int) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM contacts WHERE id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM contact_details WHERE contact_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM addresses WHERE contact_id = ?", arguments: [id])
            try db.execute(sql: "UPDATE cache_state SET contacts_generation = contacts_generation + 1")
        }
    }

    private static func upsert(_ contact: MonicaContact, position: Int, at date: Date, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO contacts (id, position, search_text, body, fetched_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET position = excluded.position, search_text = excluded.search_text,
                    body = excluded.body, fetched_at = excluded.fetched_at
                """,
            arguments: [
                contact.id, position, NameSearch.searchText(of: contact.searchableText),
                try CacheCoding.encode(contact),
                date.timeIntervalSince1970,
            ])
    }

    /// A page of cached contacts in Monica's order, and how many there are.
    func contacts(page: Int, perPage: Int) throws -> (contacts: [MonicaContact], total: Int) {
        try read { db in
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM contacts") ?? 0
            let rows = try Data.fetchAll(
                db, sql: "SELECT body FROM contacts ORDER BY position, id LIMIT ? OFFSET ?",
                arguments: [perPage, max(page - 1, 0) * perPage])
            return (try Self.withAddresses(rows.map { try CacheCoding.decode(MonicaContact.self, $0) }, db), total)
        }
    }

    func contact(_ id: Int) throws -> MonicaContact? {
        try read { db in
            try Data.fetchOne(db, sql: "SELECT body FROM contacts WHERE id = ?", arguments: [id]).map {
                try Self.withAddresses([CacheCoding.decode(MonicaContact.self, $0)], db)[0]
            }
        }
    }

    /// The contacts with these ids, in the order given.
    func contacts(_ ids: [Int]) throws -> [MonicaContact] {
        guard !ids.isEmpty else { return [] }
        return try read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, body FROM contacts WHERE id IN (SELECT value FROM json_each(?))",
                arguments: [String(describing: ids)])
            var byID: [Int: MonicaContact] = [:]
            for row in rows { byID[row["id"]] = try CacheCoding.decode(MonicaContact.self, row["body"]) }
            return try Self.withAddresses(ids.compactMap { byID[$0] }, db)
        }
    }

    /// Every contact's id and search words, and the generation they belong to (it changes with
    /// every write to the contacts, so a search index knows when to rebuild).
    func searchEntries() throws -> (generation: Int, entries: [(id: Int, searchText: String)]) {
        try read { db in
            let generation = try Int.fetchOne(db, sql: "SELECT contacts_generation FROM cache_state") ?? 0
            let rows = try Row.fetchAll(db, sql: "SELECT id, search_text FROM contacts")
            return (generation, rows.map { (id: $0["id"], searchText: $0["search_text"]) })
        }
    }

    func generation() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT contacts_generation FROM cache_state") ?? 0 }
    }

    func lastSync() throws -> Date? {
        try read { db in
            try Double.fetchOne(db, sql: "SELECT contacts_synced_at FROM cache_state").map(
                Date.init(timeIntervalSince1970:))
        }
    }

    /// The contacts with the addresses this device has (its own edits included), not the copies
    /// embedded when they were fetched: one query for all of them.
    private static func withAddresses(_ contacts: [MonicaContact], _ db: Database) throws -> [MonicaContact] {
        guard !contacts.isEmpty else { return [] }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT contact_id, body FROM addresses WHERE contact_id IN (SELECT value FROM json_each(?))
                ORDER BY position, id
                """,
            arguments: [String(describing: contacts.map(\.id))])
        var byContact: [Int: [MonicaAddress]] = [:]
        for row in rows {
            byContact[row["contact_id"], default: []].append(try CacheCoding.decode(MonicaAddress.self, row["body"]))
        }
        return contacts.map { contact in
            var contact = contact
            contact.addresses = byContact[contact.id] ?? []
            return contact
        }
    }

    // MARK: Details

    func saveDetails(_ details: CachedDetails, of contactID: Int, at date: Date) throws {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO contact_details (contact_id, body, fetched_at) VALUES (?, ?, ?)
                    ON CONFLICT (contact_id) DO UPDATE SET body = excluded.body, fetched_at = excluded.fetched_at
                    """,
                arguments: [contactID, try CacheCoding.encode(details), date.timeIntervalSince1970])
        }
    }

    func details(of contactID: Int) throws -> (details: CachedDetails, fetchedAt: Date)? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT body, fetched_at FROM contact_details WHERE contact_id = ?", arguments: [contactID]
            )
            .map {
                (try CacheCoding.decode(CachedDetails.self, $0["body"]), Date(timeIntervalSince1970: $0["fetched_at"]))
            }
        }
    }

    // MARK: Addresses

    static func addresses(of contactID: Int, _ db: Database) throws -> [MonicaAddress] {
        try Data.fetchAll(
            db, sql: "SELECT body FROM addresses WHERE contact_id = ? ORDER BY position, id", arguments: [contactID]
        ).map { try CacheCoding.decode(MonicaAddress.self, $0) }
    }

    func addresses(of contactID: Int) throws -> [MonicaAddress] { try read { try Self.addresses(of: contactID, $0) } }

    func address(_ id: Int) throws -> MonicaAddress? {
        try read { db in
            try Data.fetchOne(db, sql: "SELECT body FROM addresses WHERE id = ?", arguments: [id]).map {
                try CacheCoding.decode(MonicaAddress.self, $0)
            }
        }
    }

    func contactID(ofAddress id: Int) throws -> Int? {
        try read { db in try Int.fetchOne(db, sql: "SELECT contact_id FROM addresses WHERE id = ?", arguments: [id]) }
    }

    static func replaceAddresses(of contactID: Int, with addresses: [MonicaAddress], _ db: Database) throws {
        try db.execute(sql: "DELETE FROM addresses WHERE contact_id = ?", arguments: [contactID])
        for (position, address) in addresses.enumerated() {
            try saveAddress(address, contactID: contactID, position: position, db)
        }
    }

    func replaceAddresses(of contactID: Int, with addresses: [MonicaAddress]) throws {
        try write { try Self.replaceAddresses(of: contactID, with: addresses, $0) }
    }

    static func saveAddress(_ address: MonicaAddress, contactID: Int, position: Int? = nil, _ db: Database) throws {
        let position =
            try position ?? Int.fetchOne(
                db, sql: "SELECT position FROM addresses WHERE id = ?", arguments: [address.id])
            ?? (Int.fetchOne(
                db, sql: "SELECT MAX(position) + 1 FROM addresses WHERE contact_id = ?", arguments: [contactID]) ?? 0)
        try db.execute(
            sql: """
                INSERT INTO addresses (id, contact_id, position, body) VALUES (?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET contact_id = excluded.contact_id, position = excluded.position,
                    body = excluded.body
                """,
            arguments: [address.id, contactID, position, try CacheCoding.encode(address)])
    }

    // MARK: Countries

    func saveCountries(_ countries: [MonicaCountry]) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM countries")
            for country in countries {
                try db.execute(
                    sql: "INSERT INTO countries (code, name) VALUES (?, ?)", arguments: [country.id, country.name])
            }
        }
    }

    func countries() throws -> [MonicaCountry] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT code, name FROM countries").map {
                MonicaCountry(id: $0["code"], name: $0["name"])
            }
            .sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        }
    }

    // MARK: Everything

    /// Settings' "Clear Cache": every cached contact, detail and country.
    /// Address edits not yet sent stay, so clearing never loses a change.
    func clear() throws {
        try write { db in
            let pending = try Int.fetchSet(db, sql: "SELECT DISTINCT contact_id FROM address_edits")
            try db.execute(sql: "DELETE FROM contact_details")
            try db.execute(sql: "DELETE FROM countries")
            try db.execute(
                sql: "DELETE FROM addresses WHERE contact_id NOT IN (SELECT value FROM json_each(?))",
                arguments: [String(describing: Array(pending))])
            try db.execute(sql: "DELETE FROM contacts")
            try db.execute(
                sql: "UPDATE cache_state SET contacts_synced_at = NULL, contacts_generation = contacts_generation + 1")
        }
    }
}

/// What a contact's detail page shows besides the contact itself.
struct CachedDetails: Codable, Sendable {
    var relationships: [MonicaRelationship]
    var notes: [MonicaNote]
    var tasks: [MonicaTask]
    var activities: [MonicaActivity]
    var hasMoreActivities: Bool
    var gifts: [MonicaGift]
    var reminders: [MonicaReminder]
    // Optional, so a cache written before these were shown still reads.
    var calls: [MonicaCall]? = nil
    var debts: [MonicaDebt]? = nil
    var pets: [MonicaPet]? = nil
    var lifeEvents: [MonicaLifeEvent]? = nil
    var conversations: [MonicaConversation]? = nil
}

/// How the cache writes Monica's objects: their own Codable shapes, dates as seconds (exact).
enum CacheCoding {
    static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return try encoder.encode(value)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw MonicaClientError.storage("a cached \(type) is unreadable: \(MonicaClient.describe(error))")
        }
    }
}
