import Foundation
import SQLKit

/// The reads and writes every `/api` table shares, typed by its record. Everything is filtered by
/// account: another account's object is simply not there. Used by repositories inside their
/// transactions (`sql` is the transaction's connection).
struct MonicaTableStore<Record: MonicaRecord>: Sendable {
    let sql: any SQLDatabase
    let account: Int64

    var table: String { Record.table }

    func find(_ id: Int64) async throws -> Record? {
        try await sql.select().column("*").from(table).where("account_id", .equal, account).where("id", .equal, id)
            .first()?.record(Record.self)
    }

    /// The record, or `MonicaError.notFound` (another account's is not there either).
    func require(_ id: Int64) async throws -> Record {
        guard let found = try await find(id) else { throw MonicaError.notFound }
        return found
    }

    /// Monica's `exists:table,id` then its scoped lookup: an id nobody has is a validation error
    /// naming `attribute`, one that another account has is 404.
    func existing(_ id: Int64, attribute: String) async throws -> Record {
        if let found = try await find(id) { return found }
        let anywhere = try await sql.select().column("id").from(table).where("id", .equal, id).first()
        if anywhere == nil { throw MonicaError.invalid("The selected \(attribute) is invalid.") }
        throw MonicaError.notFound
    }

    /// The account's records whose `column` is one of `values`, by id.
    func all(where column: String, in values: [Int64]) async throws -> [Record] {
        let unique = Array(Set(values))
        guard !unique.isEmpty else { return [] }
        return try await sql.select().column("*").from(table).where("account_id", .equal, account)
            .where(SQLIdentifier(column), .in, SQLBind.group(unique)).orderBy("id").all()
            .map { try $0.record(Record.self) }
    }

    /// Every record of the account, by id.
    func all() async throws -> [Record] {
        try await sql.select().column("*").from(table).where("account_id", .equal, account).orderBy("id").all()
            .map { try $0.record(Record.self) }
    }

    func byID(_ ids: [Int64]) async throws -> [Int64: Record] {
        Dictionary(uniqueKeysWithValues: try await all(where: "id", in: ids).map { ($0.id, $0) })
    }

    /// One page of the account's records, optionally only those `filter` keeps, in the requested
    /// order (ties by id), with the total.
    func page(_ page: PageRequest, filter: (any SQLExpression)? = nil, nullableStamps: Bool = false) async throws
        -> RecordPage<Record>
    {
        func scoped(_ query: SQLSelectBuilder) -> SQLSelectBuilder {
            let query = query.from(table).where("account_id", .equal, account)
            guard let filter else { return query }
            return query.where(filter)
        }
        let total =
            try await scoped(sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "total"))
            .first()?.decode(column: "total", as: Int64.self) ?? 0
        let direction: SQLDirection = page.descending ? .descending : .ascending
        var query = scoped(sql.select().column("*"))
        if page.sortColumn != "created_at" && page.sortColumn != "updated_at" || nullableStamps {
            // Empty values sort as the smallest, as on Monica's MySQL (PostgreSQL would put them first
            // in a descending order). Only where they can be empty: it keeps the index from ordering.
            // The column comes from PageRequest's allow-list.
            query = query.orderBy(SQLRaw("CASE WHEN \(page.sortColumn) IS NULL THEN 0 ELSE 1 END"), direction)
        }
        let records = try await query.orderBy(SQLIdentifier(page.sortColumn), direction).orderBy("id", direction)
            .limit(page.limit).offset(page.offset).all().map { try $0.record(Record.self) }
        return RecordPage(records: records, total: Int(total))
    }

    /// Inserts a row with `values` (plus the account and both times); the new record.
    @discardableResult
    func insert(_ values: MonicaColumns, now: Int64?) async throws -> Record {
        var all = values
        all["account_id"] = .int(account)
        all["created_at"] = .int(now)
        all["updated_at"] = .int(now)
        let pairs = Array(all)
        guard
            let row = try await sql.insert(into: table).columns(pairs.map(\.key)).values(pairs.map { SQLBind($0.value) })
                .returning("id").first()
        else { throw MonicaStorageError("insert into \(table) returned no id") }
        return try await require(try row.decode(column: "id", as: Int64.self))
    }

    /// Sets `values` on record `id` and moves its update time; the record as it is now.
    @discardableResult
    func update(_ id: Int64, _ values: MonicaColumns, now: Int64) async throws -> Record {
        var query = sql.update(table).set("updated_at", to: SQLBind(DBValue.int(now)))
        for (name, value) in values { query = query.set(SQLIdentifier(name), to: SQLBind(value)) }
        try await query.where("account_id", .equal, account).where("id", .equal, id).run()
        return try await require(id)
    }

    /// Updates record `id`, or inserts a new record with a new uuid when `id` is nil; the record.
    func save(_ id: Int64?, _ values: MonicaColumns, now: Int64, ids: IdentifierSource) async throws -> Record {
        if let id { return try await update(id, values, now: now) }
        var values = values
        values["uuid"] = .text(ids.text())
        return try await insert(values, now: now)
    }

    func delete(_ id: Int64) async throws {
        try await sql.delete(from: table).where("account_id", .equal, account).where("id", .equal, id).run()
    }
}

/// Column values to write, by column name.
typealias MonicaColumns = [String: DBValue]

/// One page of records and how many there are in all.
struct RecordPage<Record: Sendable>: Sendable {
    var records: [Record]
    var total: Int

    func map<Other: Sendable>(_ transform: (Record) throws -> Other) rethrows -> RecordPage<Other> {
        RecordPage<Other>(records: try records.map(transform), total: total)
    }
}
