import Foundation
import GRDB
import KithCore

/// How one declared entity lives in the local database: a table named after the entity
/// (`outreach.contact` -> `outreach_contact`) with `id`, `scope`, one column per declared field and
/// `_stamps` (the HLC of each field's last write, JSON). Apps query these tables directly; deleted
/// records leave the table for `sync_tombstones`, so a table holds exactly the live records.
struct EntityTable: Sendable {
    let declaration: EntityDeclaration
    let name: String
    /// The statements a record's reads and writes use, written once per table: they run as GRDB's
    /// cached statements, prepared once per connection (a first pull of 100,000 records compiled
    /// 300,000 statements, and GRDB's authorizer ran for each: a quarter of the pull).
    private let selectByID: String
    private let insertOrReplace: String
    private let deleteByID: String

    static let reservedColumns: Set<String> = ["id", "scope", "_stamps"]

    init(declaration: EntityDeclaration) {
        self.declaration = declaration
        name = Self.tableName(declaration.name)
        let table = quoted(name)
        let columns = ["id", "scope", "_stamps"] + declaration.fields.map(\.name)
        selectByID = "SELECT * FROM \(table) WHERE id = ?"
        insertOrReplace = """
            INSERT OR REPLACE INTO \(table) (\(columns.map(quoted).joined(separator: ", ")))
            VALUES (\(databaseQuestionMarks(count: columns.count)))
            """
        deleteByID = "DELETE FROM \(table) WHERE id = ?"
    }

    static func tableName(_ entity: String) -> String { entity.replacingOccurrences(of: ".", with: "_") }

    /// Creates the table, or adds columns for fields declared since it was created.
    func createOrUpdate(_ db: Database) throws {
        for field in declaration.fields where Self.reservedColumns.contains(field.name) {
            throw KithError.storage("\(declaration.name) declares a field named \(field.name), which is reserved")
        }
        if try db.tableExists(name) {
            let existing = Set(try db.columns(in: name).map(\.name))
            for field in declaration.fields where !existing.contains(field.name) {
                try db.execute(sql: "ALTER TABLE \(quoted(name)) ADD COLUMN \(quoted(field.name)) \(Self.sqlType(field.type))")
            }
            return
        }
        let columns = declaration.fields.map { "\(quoted($0.name)) \(Self.sqlType($0.type))" }
        try db.execute(
            sql: """
                CREATE TABLE \(quoted(name)) (
                    id TEXT PRIMARY KEY NOT NULL, scope TEXT NOT NULL, _stamps TEXT NOT NULL\(columns.map { ", " + $0 }.joined())
                )
                """)
    }

    static func sqlType(_ type: FieldType) -> String {
        switch type {
        case .string, .timestamp, .uuid, .localDate, .choice: "TEXT"
        case .integer, .bool: "INTEGER"
        case .number: "REAL"
        }
    }

    /// The live record with `id`, or nil.
    func load(_ id: UUID, _ db: Database) throws -> SyncRecord? {
        guard let row = try Row.fetchOne(try db.cachedStatement(sql: selectByID), arguments: [id.lowercased]) else {
            return nil
        }
        return try record(from: row)
    }

    /// The live records among `ids`.
    func loadAll(_ ids: ArraySlice<UUID>, _ db: Database) throws -> [SyncRecord] {
        try Row.fetchAll(
            db, sql: "SELECT * FROM \(quoted(name)) WHERE id IN (\(databaseQuestionMarks(count: ids.count)))",
            arguments: StatementArguments(ids.map(\.lowercased))
        ).map(record(from:))
    }

    func record(from row: Row) throws -> SyncRecord {
        let idText: String = row["id"]
        guard let id = UUID(text: idText) else { throw KithError.storage("bad id \(idText) in \(name)") }
        var record = SyncRecord(entity: declaration.name, id: id, scope: row["scope"])
        let stampsText: String = row["_stamps"]
        guard let stamps = FieldStamps.parse(stampsText) else {
            throw KithError.storage("unreadable field stamps: \(stampsText.prefix(80))")
        }
        record.stamps = stamps
        for field in declaration.fields where record.stamps[field.name] != nil {
            record.fields[field.name] = Self.value(row[field.name], as: field.type)
        }
        return record
    }

    /// Writes a live record (insert or replace).
    func save(_ record: SyncRecord, _ db: Database) throws {
        // Database values, each already converted, a first pull saves every record. They go in as
        // optional existentials: GRDB's initializer for a sequence of a concrete type maps it
        // through a key path, unspecialized, which was 8 % of a first pull's CPU.
        var values: [(any DatabaseValueConvertible)?] = []
        values.reserveCapacity(3 + declaration.fields.count)
        values += [record.id.lowercased.databaseValue, record.scope.databaseValue, FieldStamps.text(of: record.stamps).databaseValue]
        for field in declaration.fields { values.append(Self.databaseValue(record.fields[field.name] ?? .null, as: field.type)) }
        try db.cachedStatement(sql: insertOrReplace).execute(arguments: StatementArguments(values))
    }

    func remove(_ id: UUID, _ db: Database) throws {
        try db.cachedStatement(sql: deleteByID).execute(arguments: [id.lowercased])
    }

    static func databaseValue(_ value: JSONTree, as type: FieldType) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return (flag ? 1 : 0).databaseValue
        case .string(let text): return text.databaseValue
        case .int(let integer):
            if case .integer = type { return integer.databaseValue }
            return Double(integer).databaseValue
        case .double(let number):
            if case .integer = type, let whole = Int64(exactly: number) { return whole.databaseValue }
            return number.databaseValue
        case .array, .object:
            // Declarations have scalar fields only; the store never keeps a nested value.
            return .null
        }
    }

    static func value(_ stored: DatabaseValue, as type: FieldType) -> JSONTree {
        switch stored.storage {
        case .null: return .null
        case .int64(let integer):
            if case .bool = type { return .bool(integer != 0) }
            if case .integer = type { return .int(integer) }
            return .double(Double(integer))
        case .double(let number): return .double(number)
        case .string(let text): return .string(text)
        case .blob(let data): return .string(String(decoding: data, as: UTF8.self))
        }
    }
}

/// An SQL identifier in double quotes (entity and field names come from declarations, not users).
func quoted(_ identifier: String) -> String { "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
