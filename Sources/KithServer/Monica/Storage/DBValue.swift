import Foundation
import KithCore
import SQLKit

/// A stored value of an `/api` table. Booleans are stored as 0/1 so one schema fits both engines.
enum DBValue: Sendable, Encodable, Equatable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)

    static func text(_ value: String?) -> DBValue { value.map(DBValue.text) ?? .null }
    static func int(_ value: Int64?) -> DBValue { value.map(DBValue.int) ?? .null }
    static func double(_ value: Double?) -> DBValue { value.map(DBValue.double) ?? .null }
    static func bool(_ value: Bool?) -> DBValue { value.map { .int($0 ? 1 : 0) } ?? .null }

    var textValue: String? { if case .text(let value) = self { value } else { nil } }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        }
    }
}

/// A column of an `/api` table and how to read it back.
struct MonicaColumn: Sendable {
    enum Kind: Sendable { case text, int, double, bool }
    let name: String
    let kind: Kind

    init(_ name: String, _ kind: Kind) {
        self.name = name
        self.kind = kind
    }
}

/// One stored row, read by column name.
struct MonicaRow: Sendable {
    var values: [String: DBValue]

    func text(_ name: String) -> String? { if case .text(let value)? = values[name] { value } else { nil } }
    func int(_ name: String) -> Int64? { if case .int(let value)? = values[name] { value } else { nil } }
    func double(_ name: String) -> Double? {
        switch values[name] {
        case .double(let value)?: value
        case .int(let value)?: Double(value)
        default: nil
        }
    }
    func bool(_ name: String) -> Bool { int(name).map { $0 != 0 } ?? false }
    var id: Int64 { int("id") ?? 0 }

    static func read(_ row: any SQLRow, _ columns: [MonicaColumn]) throws -> MonicaRow {
        var values: [String: DBValue] = [:]
        for column in columns {
            if try row.decodeNil(column: column.name) {
                values[column.name] = .null
                continue
            }
            switch column.kind {
            case .text: values[column.name] = .text(try row.decode(column: column.name, as: String.self))
            case .int, .bool: values[column.name] = .int(try row.decode(column: column.name, as: Int64.self))
            case .double: values[column.name] = .double(try row.decode(column: column.name, as: Double.self))
            }
        }
        return MonicaRow(values: values)
    }
}

/// A table of `/api` objects: every one has an integer id, belongs to an account, and has
/// creation and update times (milliseconds).
struct MonicaTable: Sendable {
    let name: String
    /// The columns besides id, account_id, created_at and updated_at.
    let columns: [MonicaColumn]
    /// Monica's default types are copied without times.
    var stampsMayBeNull = false

    var allColumns: [MonicaColumn] {
        [MonicaColumn("id", .int), MonicaColumn("account_id", .int)] + columns
            + [MonicaColumn("created_at", .int), MonicaColumn("updated_at", .int)]
    }

    func read(_ row: any SQLRow) throws -> MonicaRow { try MonicaRow.read(row, allColumns) }
}

/// The generic reads and writes every `/api` table shares. Everything is filtered by account:
/// another account's object is simply not there.
enum MonicaQueries {
    static func insert(
        _ sql: any SQLDatabase, _ table: MonicaTable, account: Int64, now: Int64, _ values: [String: DBValue]
    )
        async throws -> Int64
    {
        let all = values.merging(["account_id": .int(account), "created_at": .int(now), "updated_at": .int(now)]) {
            new, _ in new
        }
        let pairs = Array(all)
        guard
            let row = try await sql.insert(into: table.name).columns(pairs.map(\.key)).values(pairs.map { SQLBind($0.value) })
                .returning("id").first()
        else { throw MonicaStorageError("insert into \(table.name) returned no id") }
        return try row.decode(column: "id", as: Int64.self)
    }

    static func find(_ sql: any SQLDatabase, _ table: MonicaTable, account: Int64, id: Int64) async throws -> MonicaRow?
    {
        try await sql.select().column("*").from(table.name).where("account_id", .equal, account).where("id", .equal, id)
            .first().map(table.read)
    }

    static func update(
        _ sql: any SQLDatabase, _ table: MonicaTable, account: Int64, id: Int64, now: Int64, _ values: [String: DBValue]
    ) async throws {
        var query = sql.update(table.name).set("updated_at", to: SQLBind(DBValue.int(now)))
        for (name, value) in values { query = query.set(SQLIdentifier(name), to: SQLBind(value)) }
        try await query.where("account_id", .equal, account).where("id", .equal, id).run()
    }

    static func delete(_ sql: any SQLDatabase, _ table: MonicaTable, account: Int64, id: Int64) async throws {
        try await sql.delete(from: table.name).where("account_id", .equal, account).where("id", .equal, id).run()
    }

    /// Updates row `id`, or inserts a new row (with a uuid, where the table has one) when `id` is nil;
    /// the row's id.
    static func save(
        _ sql: any SQLDatabase, _ table: MonicaTable, account: Int64, id: Int64?, now: Int64,
        _ values: [String: DBValue], ids: IdentifierSource = .system
    ) async throws -> Int64 {
        if let id {
            try await update(sql, table, account: account, id: id, now: now, values)
            return id
        }
        var values = values
        if table.columns.contains(where: { $0.name == "uuid" }) { values["uuid"] = .text(ids.text()) }
        return try await insert(sql, table, account: account, now: now, values)
    }

    /// One page of an account's rows, optionally only those `filter` keeps, in the requested order
    /// (ties by id), with the total.
    static func page(
        _ sql: any SQLDatabase, _ table: MonicaTable, account: Int64, filter: (any SQLExpression)? = nil,
        _ page: PageRequest
    ) async throws -> (rows: [MonicaRow], total: Int) {
        func scoped(_ query: SQLSelectBuilder) -> SQLSelectBuilder {
            let query = query.from(table.name).where("account_id", .equal, account)
            guard let filter else { return query }
            return query.where(filter)
        }
        let total =
            try await scoped(sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "total"))
            .first()?.decode(column: "total", as: Int64.self) ?? 0
        let direction: SQLDirection = page.descending ? .descending : .ascending
        var query = scoped(sql.select().column("*"))
        if page.sortColumn != "created_at" && page.sortColumn != "updated_at" || table.stampsMayBeNull {
            // Empty values sort as the smallest, as on Monica's MySQL (PostgreSQL would put them first
            // in a descending order). Only where they can be empty: it keeps the index from ordering.
            // The column comes from PageRequest's allow-list.
            query = query.orderBy(SQLRaw("CASE WHEN \(page.sortColumn) IS NULL THEN 0 ELSE 1 END"), direction)
        }
        let rows =
            try await query
            .orderBy(SQLIdentifier(page.sortColumn), direction).orderBy("id", direction)
            .limit(page.limit).offset(page.offset).all().map(table.read)
        return (rows, Int(total))
    }

    /// All of an account's rows whose `column` is one of `values` (for nesting in a page).
    static func all(
        _ sql: any SQLDatabase, _ table: MonicaTable, account: Int64, where column: String, in values: [Int64]
    ) async throws -> [MonicaRow] {
        guard !values.isEmpty else { return [] }
        return try await sql.select().column("*").from(table.name).where("account_id", .equal, account)
            .where(SQLIdentifier(column), .in, SQLBind.group(values)).orderBy("id").all().map(table.read)
    }
}

/// `column = value`, for `MonicaQueries.page`'s filter.
func equals(_ column: String, _ value: Int64) -> any SQLExpression {
    SQLBinaryExpression(SQLIdentifier(column), .equal, SQLBind(value))
}

/// `column IN (SELECT … FROM through WHERE key = value)`: rows linked through a join table,
/// however many, without binding every id.
func linked(_ column: String, through table: String, select: String, where key: String, is value: Int64)
    -> any SQLExpression
{
    SQLBinaryExpression(
        SQLIdentifier(column), .in,
        SQLSubquery.select {
            $0.column(SQLIdentifier(select)).from(table).where(SQLIdentifier(key), .equal, SQLBind(value))
        })
}

struct MonicaStorageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
