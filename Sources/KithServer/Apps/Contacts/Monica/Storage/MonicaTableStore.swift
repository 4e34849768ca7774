import Foundation
import SQLKit

/// The reads and writes every `/api` table shares, typed by its record. Everything is filtered by
/// account: another account's object is simply not there. Used by repositories inside their
/// transactions (`sql` is the transaction's connection).
struct MonicaTableStore<Record: MonicaRecord>: Sendable {
    let sql: any SQLDatabase
    let account: Int64

    var table: String { Record.table }

    // Queries are written as text with binds, not with SQLKit's builders: the text is the prepared
    // statement's key, and building it from identifiers (each quoted and escaped) was a quarter of
    // a small request's CPU. Table and column names here are the code's own, never
    // input; written columns are quoted, since one could be a keyword.

    /// Record `id`; `forUpdate` locks its row until the transaction ends (PostgreSQL only).
    func find(_ id: Int64, forUpdate: Bool = false) async throws -> Record? {
        let lock = forUpdate ? " FOR UPDATE" : ""
        return try await sql.raw(
            """
            SELECT * FROM \(unsafeRaw: table) WHERE account_id = \(bind: account) AND id = \(bind: id)\(unsafeRaw: lock)
            """
        ).first()?.record(Record.self)
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
        let anywhere = try await sql.raw("SELECT id FROM \(unsafeRaw: table) WHERE id = \(bind: id)").first()
        if anywhere == nil { throw MonicaError.invalid("The selected \(attribute) is invalid.") }
        throw MonicaError.notFound
    }

    /// The account's records whose `column` is one of `values`, by id.
    func all(where column: String, in values: [Int64]) async throws -> [Record] {
        let unique = Array(Set(values))
        guard !unique.isEmpty else { return [] }
        // By ids, the primary key finds each row; SQLite's planner (it has no statistics) would
        // rather walk the account's index for more than a few ids: 14 ms for 50 of 100,000
        // contacts. A unary plus keeps `account_id` a filter only (PostgreSQL reads it as +x).
        let accountColumn = column == "id" ? "+account_id" : "account_id"
        return try await sql.raw(
            """
            SELECT * FROM \(unsafeRaw: table) WHERE \(unsafeRaw: accountColumn) = \(bind: account)
            AND "\(unsafeRaw: column)" \(in: unique) ORDER BY id
            """
        ).all().map { try $0.record(Record.self) }
    }

    /// Every record of the account, by id.
    func all() async throws -> [Record] {
        try await sql.raw("SELECT * FROM \(unsafeRaw: table) WHERE account_id = \(bind: account) ORDER BY id").all()
            .map { try $0.record(Record.self) }
    }

    func byID(_ ids: [Int64]) async throws -> [Int64: Record] {
        Dictionary(uniqueKeysWithValues: try await all(where: "id", in: ids).map { ($0.id, $0) })
    }

    /// One page of the account's records, optionally only those `filter` keeps, in the requested
    /// order (ties by id), with the total. Written as SQL text rather than with SQLKit's builder,
    /// whose serializing (quoting each name again) was a tenth of a small list's CPU;
    /// the limit and offset are bound, so every page shares one prepared statement.
    func page(_ page: PageRequest, filter: (any SQLExpression)? = nil, nullableStamps: Bool = false) async throws
        -> RecordPage<Record>
    {
        var scope: SQLQueryString = "FROM \(unsafeRaw: table) WHERE account_id = \(bind: account)"
        if let filter { scope += " AND (\(filter))" }
        let total =
            try await sql.raw("SELECT COUNT(*) AS total " + scope).first()?.decode(column: "total", as: Int64.self) ?? 0
        // The column comes from PageRequest's allow-list.
        let direction = page.descending ? "DESC" : "ASC"
        let column = "\"\(page.sortColumn)\""
        var order = ""
        if page.sortColumn != "created_at" && page.sortColumn != "updated_at" || nullableStamps {
            // Empty values sort as the smallest, as on Monica's MySQL (PostgreSQL would put them first
            // in a descending order). Only where they can be empty: it keeps the index from ordering.
            order = "CASE WHEN \(column) IS NULL THEN 0 ELSE 1 END \(direction), "
        }
        order += "\(column) \(direction), id \(direction)"
        let query: SQLQueryString =
            "SELECT * " + scope + " ORDER BY \(unsafeRaw: order) LIMIT \(bind: page.limit) OFFSET \(bind: page.offset)"
        let records = try await sql.raw(query).all().map { try $0.record(Record.self) }
        return RecordPage(records: records, total: Int(total))
    }

    /// Inserts a row with `values` (plus the account and both times); the new record.
    @discardableResult
    func insert(_ values: MonicaColumns, now: Int64?) async throws -> Record {
        var all = values
        all["account_id"] = .int(account)
        all["created_at"] = .int(now)
        all["updated_at"] = .int(now)
        let pairs = all.sorted { $0.key < $1.key }
        // RETURNING * hands the new row back in the same statement (a round trip on PostgreSQL).
        guard
            let row = try await sql.raw(
                """
                INSERT INTO \(unsafeRaw: table) (\(unsafeRaw: pairs.map { "\"\($0.key)\"" }.joined(separator: ", ")))
                VALUES (\(binds: pairs.map(\.value))) RETURNING *
                """
            ).first()
        else { throw MonicaStorageError("insert into \(table) returned no row") }
        return try row.record(Record.self)
    }

    /// Sets `values` on record `id` and moves its update time; the record as it is now, or
    /// `MonicaError.notFound` when the account has no record `id`. The time moves forward even
    /// when the clock has not (two changes in one millisecond, a clock set back): it is the row's
    /// version (`EntityTag`), so every change must give a new one.
    @discardableResult
    func update(_ id: Int64, _ values: MonicaColumns, now: Int64) async throws -> Record {
        var statement = SQLQueryString(
            """
            UPDATE \(unsafeRaw: table) SET updated_at = CASE
            WHEN updated_at >= \(bind: now) AND updated_at < \(bind: Int64.max) THEN updated_at + 1
            ELSE \(bind: now) END
            """)
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            statement.appendInterpolation(unsafeRaw: ", \"\(name)\" = ")
            statement.appendInterpolation(bind: value)
        }
        statement.appendInterpolation(unsafeRaw: " WHERE account_id = ")
        statement.appendInterpolation(bind: account)
        statement.appendInterpolation(unsafeRaw: " AND id = ")
        statement.appendInterpolation(bind: id)
        statement.appendInterpolation(unsafeRaw: " RETURNING *")
        guard let row = try await sql.raw(statement).first() else { throw MonicaError.notFound }
        return try row.record(Record.self)
    }

    /// Updates record `id`, or inserts a new record with a new uuid when `id` is nil; the record.
    func save(_ id: Int64?, _ values: MonicaColumns, now: Int64, ids: IdentifierSource) async throws -> Record {
        if let id { return try await update(id, values, now: now) }
        var values = values
        values["uuid"] = .text(ids.text())
        return try await insert(values, now: now)
    }

    func delete(_ id: Int64) async throws {
        try await sql.raw("DELETE FROM \(unsafeRaw: table) WHERE account_id = \(bind: account) AND id = \(bind: id)").run()
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
