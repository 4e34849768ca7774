import Foundation
import GRDB
import KithCore

/// Reads and writes records in whatever state they are: live ones in their entity table, deleted
/// ones (tombstones, kept so a late edit never brings them back) in `sync_tombstones`.
struct RecordStorage: Sendable {
    let catalog: EntityCatalog
    /// Each entity's table, its statements written once.
    private let tables: [String: EntityTable]

    init(catalog: EntityCatalog) {
        self.catalog = catalog
        tables = Dictionary(
            catalog.declarations.map { ($0.name, EntityTable(declaration: $0)) }, uniquingKeysWith: { first, _ in first })
    }

    func table(_ entity: String) throws -> EntityTable {
        guard let table = tables[entity] else {
            throw KithError.invalid(APIErrorDetail(.unknownEntity, "This app has no entity \"\(entity)\"."))
        }
        return table
    }

    func load(_ entity: String, _ id: UUID, _ db: Database) throws -> SyncRecord? {
        if let live = try table(entity).load(id, db) { return live }
        guard
            let row = try Row.fetchOne(
                try db.cachedStatement(sql: "SELECT * FROM sync_tombstones WHERE id = ? AND entity = ?"),
                arguments: [id.lowercased, entity])
        else { return nil }
        return Self.tombstone(entity, id, row)
    }

    /// A deleted record as `sync_tombstones` keeps it: no fields, its scope and deletion stamp.
    private static func tombstone(_ entity: String, _ id: UUID, _ row: Row) -> SyncRecord {
        var record = SyncRecord(entity: entity, id: id, scope: row["scope"])
        record.deleted = HLC(row["hlc"] as String)
        return record
    }

    /// Which record: an id is one record within its entity (another entity's record may have it).
    struct Key: Hashable {
        let entity: String
        let id: UUID
    }

    /// The records among `keys` this device holds, live or deleted, read a few hundred per
    /// statement (a statement per record was a twelfth of a device's CPU in a first
    /// pull). Each key's entity must be declared.
    func loadAll(_ keys: Set<Key>, _ db: Database) throws -> [Key: SyncRecord] {
        var found: [Key: SyncRecord] = [:]
        for (entity, entityKeys) in Dictionary(grouping: keys, by: \.entity) {
            let table = try table(entity)
            for ids in Self.chunks(of: entityKeys.map(\.id)) {
                for record in try table.loadAll(ids, db) { found[Key(entity: entity, id: record.id)] = record }
            }
        }
        let missing = keys.filter { found[$0] == nil }
        for ids in Self.chunks(of: Array(Set(missing.map(\.id)))) {
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM sync_tombstones WHERE id IN (\(databaseQuestionMarks(count: ids.count)))",
                arguments: StatementArguments(ids.map(\.lowercased)))
            for row in rows {
                guard let id = UUID(text: row["id"]) else { continue }
                let key = Key(entity: row["entity"], id: id)
                guard missing.contains(key) else { continue }
                found[key] = Self.tombstone(key.entity, id, row)
            }
        }
        return found
    }

    /// Ids in groups small enough for one statement's parameters.
    private static func chunks(of ids: [UUID]) -> [ArraySlice<UUID>] {
        stride(from: 0, to: ids.count, by: 500).map { ids[$0..<min($0 + 500, ids.count)] }
    }

    func store(_ record: SyncRecord, _ db: Database) throws {
        let table = try table(record.entity)
        if let deleted = record.deleted {
            try table.remove(record.id, db)
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO sync_tombstones (id, entity, scope, hlc) VALUES (?, ?, ?, ?)")
                .execute(arguments: [record.id.lowercased, record.entity, record.scope, deleted.description])
        } else {
            try table.save(record, db)
        }
    }

    /// Forgets a record entirely (a creation the server refused).
    func forget(_ entity: String, _ id: UUID, _ db: Database) throws {
        try table(entity).remove(id, db)
        try db.execute(sql: "DELETE FROM sync_tombstones WHERE id = ? AND entity = ?", arguments: [id.lowercased, entity])
    }

    /// Forgets every record of `scope`, live or deleted (a family this account no longer belongs
    /// to: the server sends nothing more of it, so nothing kept here would ever be corrected).
    /// Returns the live records that went, for the pull's report.
    func forgetScope(_ scope: String, _ db: Database) throws -> [RecordChange] {
        var gone: [RecordChange] = []
        for declaration in catalog.declarations {
            let table = EntityTable(declaration: declaration)
            let ids = try String.fetchAll(db, sql: "SELECT id FROM \(quoted(table.name)) WHERE scope = ?", arguments: [scope])
            gone += ids.compactMap(UUID.init(text:)).map { RecordChange(entity: declaration.name, id: $0, deleted: true) }
            try db.execute(sql: "DELETE FROM \(quoted(table.name)) WHERE scope = ?", arguments: [scope])
        }
        try db.execute(sql: "DELETE FROM sync_tombstones WHERE scope = ?", arguments: [scope])
        return gone
    }
}
