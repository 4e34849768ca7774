import Foundation
import KithCore
import SQLKit

/// Storage of synced records, the change sequence and applied mutation ids. It loads and
/// persists; what a mutation may do is `SyncWriter`'s to decide (inside `inScope`'s transaction).
struct SyncRepository: Sendable {
    let database: KithDatabase

    /// Runs `body` in one transaction holding `scope`'s turn: on PostgreSQL one scope's writes take
    /// turns (`pg_advisory_xact_lock`), so a rule across records (two years named 2026) can't be
    /// beaten by a race; SQLite's transactions already take turns. Everything `body` stores
    /// commits together or not at all.
    func inScope<T: Sendable>(_ scope: String, _ body: @escaping @Sendable (SyncTransaction) async throws -> T)
        async throws -> T
    {
        try await database.transaction { [engine = database.engine] sql in
            if engine == .postgres {
                try await sql.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: scope)))").run()
            }
            return try await body(SyncTransaction(sql: sql, scope: scope, engine: engine))
        }
    }

    /// The live records of `entities` in `scope`, fields only (no stamps): what the web pages show.
    func liveFields(_ entities: Set<String>, in scope: String) async throws -> [SyncRecord] {
        try await database.read { sql in try await Self.live(entities, in: scope, stamps: false, sql: sql) }
    }

    /// The live records of `entities` in `scope` with their stamps: what a server-side writer (the
    /// retention purge) reads before stamping changes after them.
    func liveRecords(_ entities: Set<String>, in scope: String) async throws -> [SyncRecord] {
        try await database.run { sql in try await Self.live(entities, in: scope, stamps: true, sql: sql) }
    }

    /// Counted by the database, without sending the records: how many live records of `entity` in
    /// `scope` have `field` equal to `value` (ignoring case, as ids are compared), and how many of
    /// those have `flag` true (a year's people, and how many are delivered).
    func count(_ entity: String, in scope: String, where field: String, is value: String, flagged flag: String)
        async throws -> (all: Int, flagged: Int)
    {
        let engine = database.engine
        return try await database.read { sql in
            // The JSON paths are bound, not spliced: SQLite takes "$.name", PostgreSQL the key.
            let query: SQLQueryString
            if engine == .postgres {
                query = """
                    SELECT COUNT(*) AS all_count,
                        COALESCE(SUM(CASE WHEN (fields::jsonb ->> \(bind: flag)) = 'true' THEN 1 ELSE 0 END), 0) AS flagged
                    FROM sync_records WHERE scope = \(bind: scope) AND entity = \(bind: entity) AND deleted IS NULL
                        AND LOWER(fields::jsonb ->> \(bind: field)) = \(bind: value.lowercased())
                    """
            } else {
                query = """
                    SELECT COUNT(*) AS all_count,
                        COALESCE(SUM(CASE WHEN json_extract(fields, \(bind: "$." + flag)) = 1 THEN 1 ELSE 0 END), 0) AS flagged
                    FROM sync_records WHERE scope = \(bind: scope) AND entity = \(bind: entity) AND deleted IS NULL
                        AND LOWER(json_extract(fields, \(bind: "$." + field))) = \(bind: value.lowercased())
                    """
            }
            guard let row = try await sql.raw(query).first() else { return (0, 0) }
            return (try row.decode(column: "all_count", as: Int.self), try row.decode(column: "flagged", as: Int.self))
        }
    }

    /// The scopes holding at least one live record of `entity` (the accounts with Nutrition days).
    func scopes(withLive entity: String) async throws -> [String] {
        try await database.run { sql in
            try await sql.raw(
                "SELECT DISTINCT scope FROM sync_records WHERE entity = \(bind: entity) AND deleted IS NULL ORDER BY scope"
            ).all(decodingColumn: "scope", as: String.self)
        }
    }

    /// The record with this id in `scope`, deleted or not. A record is known by its scope and id
    /// together: the same id in another scope is another record, which no account can occupy for
    /// another.
    func record(_ id: UUID, in scope: String) async throws -> SyncRecord? {
        try await database.read { sql in
            try await sql.raw("SELECT * FROM sync_records WHERE scope = \(bind: scope) AND id = \(bind: id.lowercased)")
                .record(StoredRecord.self)?.record()
        }
    }

    fileprivate static func live(_ entities: Set<String>, in scope: String, stamps: Bool, sql: any SQLDatabase)
        async throws -> [SyncRecord]
    {
        guard !entities.isEmpty else { return [] }
        return try await sql.raw(
            "SELECT * FROM sync_records WHERE scope = \(bind: scope) AND entity \(in: Array(entities)) AND deleted IS NULL"
        ).records(StoredRecord.self).map { try $0.record(stamps: stamps) }
    }

    /// Changes after each scope's position, oldest first across scopes, at most `limit`.
    func changes(after positions: [String: Int64], limit: Int) async throws -> [StoredRecord] {
        guard !positions.isEmpty else { return [] }
        return try await database.read { sql in
            // One (scope, position) condition per scope: the (scope, seq) index serves each.
            var condition = SQLQueryString("")
            for (index, (scope, seq)) in positions.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { condition.appendLiteral(" OR ") }
                condition.appendInterpolation(unsafeRaw: "(scope = ")
                condition.appendInterpolation(bind: scope)
                condition.appendInterpolation(unsafeRaw: " AND seq > ")
                condition.appendInterpolation(bind: seq)
                condition.appendInterpolation(unsafeRaw: ")")
            }
            return try await sql.raw(
                "SELECT * FROM sync_records WHERE \(condition) ORDER BY seq LIMIT \(bind: limit)"
            ).records(StoredRecord.self)
        }
    }

    /// Where each of `scopes` stands: its latest sequence value (a scope never written since
    /// per-scope counters began stands at the floor, the last value of the server-wide counter
    /// before them). What a pull that has seen everything would hold, and what a live socket may
    /// have missed while nudges could not reach this server.
    func currentSequenceValues(of scopes: [String]) async throws -> [String: Int64] {
        var values: [String: Int64] = [:]
        // Bounded IN lists: SQLite takes at most 32,766 bound values per statement (on PostgreSQL the
        // list is one array value, SQLInList).
        for start in stride(from: 0, to: scopes.count, by: 1000) {
            let batch = Array(scopes[start..<min(start + 1000, scopes.count)])
            // One statement: the floor on every row, beside each counter found (none: one row).
            let rows = try await database.read { sql in
                try await sql.raw(
                    """
                    SELECT f.value AS floor, c.scope AS scope, c.value AS value FROM sync_counter f
                    LEFT JOIN sync_scope_counters c ON c.scope \(in: batch) WHERE f.id = 1
                    """
                ).records(ScopeCounter.self)
            }
            let floor = rows.first?.floor ?? 0
            for scope in batch { values[scope] = floor }
            for row in rows { if let scope = row.scope, let value = row.value { values[scope] = value } }
        }
        return values
    }
}

/// What `SyncWriter` stores and loads inside one scope's transaction (`SyncRepository.inScope`).
struct SyncTransaction: Sendable {
    let sql: any SQLDatabase
    let scope: String
    /// On PostgreSQL, records and the mutations that wrote them are stored in one statement.
    let engine: KithDatabase.Engine

    /// The record with this id in this scope as stored (deleted or not).
    func record(_ id: UUID) async throws -> SyncRecord? {
        try await records([id])[id]?.record
    }

    /// The live records of `entities` in this scope, by entity (what rules across records read).
    func liveRecords(_ entities: Set<String>) async throws -> [String: [SyncRecord]] {
        Dictionary(grouping: try await SyncRepository.live(entities, in: scope, stamps: true, sql: sql), by: \.entity)
    }

    /// Which of `mutationIDs` `userID` had applied before (mutation ids are unique per account).
    func appliedMutations(_ mutationIDs: [UUID], by userID: String) async throws -> Set<UUID> {
        guard !mutationIDs.isEmpty else { return [] }
        let rows = try await sql.raw(
            """
            SELECT mutation_id FROM sync_mutations
            WHERE user_id = \(bind: userID) AND mutation_id \(in: mutationIDs.map(\.lowercased))
            """
        ).all(decodingColumn: "mutation_id", as: String.self)
        return Set(rows.compactMap(UUID.init(text:)))
    }

    /// What a push's batch opens with, in one statement: `records(ids)` and
    /// `appliedMutations(mutationIDs, by: userID)`. An applied mutation comes as a row of its own,
    /// its id in `id` and every other column null (a record's entity never is).
    func recordsAndAppliedMutations(_ ids: [UUID], _ mutationIDs: [UUID], by userID: String) async throws
        -> (records: [UUID: (record: SyncRecord, seq: Int64)], applied: Set<UUID>)
    {
        guard !ids.isEmpty, !mutationIDs.isEmpty else {
            return (try await records(ids), try await appliedMutations(mutationIDs, by: userID))
        }
        // Lists of keys are planned for their length on each run (`plannedPerRun`); a push of one
        // looks up one key of each, which any plan finds by its index.
        let sql = ids.count > 1 || mutationIDs.count > 1 ? self.sql.plannedPerRun : self.sql
        let rows = try await sql.raw(
            """
            SELECT id, entity, scope, fields, stamps, deleted, seq FROM sync_records
            WHERE scope = \(bind: scope) AND id \(in: ids.map(\.lowercased))
            UNION ALL
            SELECT mutation_id, NULL, NULL, NULL, NULL, NULL, NULL FROM sync_mutations
            WHERE user_id = \(bind: userID) AND mutation_id \(in: mutationIDs.map(\.lowercased))
            """
        ).all()
        var found: [UUID: (record: SyncRecord, seq: Int64)] = [:]
        var applied: Set<UUID> = []
        for row in rows {
            if try row.decodeNil(column: "entity") {
                if let id = UUID(text: try row.decode(column: "id", as: String.self)) { applied.insert(id) }
                continue
            }
            let stored = try RowDecoder.decode(StoredRecord.self, from: row)
            let record = try stored.record()
            found[record.id] = (record, stored.seq)
        }
        return (found, applied)
    }

    /// The records of this scope with these ids as stored (deleted or not), with their sequence
    /// values; ids without a record here are absent.
    func records(_ ids: [UUID]) async throws -> [UUID: (record: SyncRecord, seq: Int64)] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await sql.raw(
            "SELECT * FROM sync_records WHERE scope = \(bind: scope) AND id \(in: ids.map(\.lowercased))"
        ).records(StoredRecord.self)
        var found: [UUID: (record: SyncRecord, seq: Int64)] = [:]
        for row in rows {
            let record = try row.record()
            found[record.id] = (record, row.seq)
        }
        return found
    }

    /// The next `count` values of `scope`'s change counter (this transaction's own scope unless
    /// another is named: a notice takes its inbox's), in one statement (`RETURNING`, SQLite 3.35+
    /// and PostgreSQL). Each scope counts on its own row, so writers of different scopes never wait
    /// for each other; the row stays locked until the transaction ends, so the writers of one
    /// scope take turns, and within a scope sequence order is commit order: a pull never skips a
    /// change (docs/sync.md). A scope's first value comes after the floor (`sync_counter`: where the
    /// one server-wide counter stood before per-scope counters), so no position handed out earlier
    /// is ever passed over.
    ///
    /// On PostgreSQL the same statement announces the change to every server's live sockets
    /// (`NOTIFY kith_changes, '<scope> <last>'`, `PostgresChangeChannel`): PostgreSQL delivers a
    /// notification when its transaction commits and drops it when it rolls back, so a change is
    /// announced exactly when it is there to pull, by whatever code moved the counter, without a
    /// round trip of its own.
    func reserveSequenceValues(_ count: Int, in scope: String? = nil) async throws -> ClosedRange<Int64> {
        precondition(count > 0, "a reservation of no sequence values")
        let scope = scope ?? self.scope
        guard let last = try await sql.raw(reservation(count, in: scope)).first(decodingColumn: "value", as: Int64.self)
        else { throw SyncStorageError("the change counter of \(scope) returned no value") }
        return (last - Int64(count) + 1)...last
    }

    private func reservation(_ count: Int, in scope: String) -> SQLQueryString {
        var statement: SQLQueryString = """
            INSERT INTO sync_scope_counters (scope, value)
            VALUES (\(bind: scope), (SELECT value FROM sync_counter WHERE id = 1) + \(bind: Int64(count)))
            ON CONFLICT (scope) DO UPDATE SET value = sync_scope_counters.value + \(bind: Int64(count))
            RETURNING value
            """
        if engine == .postgres {
            statement =
                statement
                + ", pg_notify(\(bind: PostgresChangeChannel.name), \(bind: scope + " ") || value)::text AS announced"
        }
        return statement
    }

    /// Stores `records` (each appears once; all of this scope) at the scope's next sequence values,
    /// in order, inserting new ones and updating the rest, and remembers `mutationIDs` as applied
    /// by `userID`: the values they took. On PostgreSQL, where each statement is a round trip, one
    /// statement moves the counter (and announces the change, `reserveSequenceValues`), stores the
    /// records and remembers the mutations, its rows sent as one array per column (`unnest`) so
    /// that its text is the same for every batch and stays prepared: as a multi-row `VALUES`, a
    /// batch of 256 had been 2,560 values and a text of its own length, parsed and planned anew each
    /// time. On SQLite, where a statement costs microseconds, it is three. (`userID` and `now`
    /// matter only with mutation ids: the server's own writes have none.)
    func store(_ records: [SyncRecord], remembering mutationIDs: [UUID] = [], userID: String = "", now: Int64 = 0)
        async throws -> ClosedRange<Int64>
    {
        precondition(!records.isEmpty, "a write of no records")
        guard engine == .postgres else {
            let values = try await reserveSequenceValues(records.count)
            try await sql.raw(Self.valuesInsert(StoredColumns(records), at: values)).run()
            try await remember(mutationIDs, userID: userID, now: now)
            return values
        }
        let count = Int64(records.count)
        let columns = StoredColumns(records)
        // A live record's `deleted` goes as '' (an HLC is never empty): the arrays carry no nulls.
        let statement: SQLQueryString = """
            WITH reserved AS (\(reservation(records.count, in: scope))),
            remembered AS (\(remembering(mutationIDs, userID: userID, now: now))),
            stored AS (
                INSERT INTO sync_records (id, entity, scope, fields, stamps, deleted, seq)
                SELECT r.id, r.entity, r.scope, r.fields, r.stamps, NULLIF(r.deleted, ''), reserved.value - \(bind: count) + r.n
                FROM reserved, unnest(\(bind: columns.ids)::text[], \(bind: columns.entities)::text[],
                    \(bind: columns.scopes)::text[], \(bind: columns.fields)::text[], \(bind: columns.stamps)::text[],
                    \(bind: columns.deleted.map { $0 ?? "" })::text[]) WITH ORDINALITY
                    AS r (id, entity, scope, fields, stamps, deleted, n)
                \(unsafeRaw: Self.onConflict)
            )
            SELECT value FROM reserved
            """
        guard let last = try await sql.raw(statement).first(decodingColumn: "value", as: Int64.self) else {
            throw SyncStorageError("the change counter of \(scope) returned no value")
        }
        return (last - count + 1)...last
    }

    /// Remembers mutations as applied by `userID`, in one statement.
    func remember(_ mutationIDs: [UUID], userID: String, now: Int64) async throws {
        guard !mutationIDs.isEmpty else { return }
        try await sql.raw(remembering(mutationIDs, userID: userID, now: now)).run()
    }

    private func remembering(_ mutationIDs: [UUID], userID: String, now: Int64) -> SQLQueryString {
        let ids = mutationIDs.map(\.lowercased)
        if engine == .postgres {
            return """
                INSERT INTO sync_mutations (mutation_id, user_id, applied_at)
                SELECT m, \(bind: userID), \(bind: now) FROM unnest(\(bind: ids)::text[]) AS m
                """
        }
        var statement = SQLQueryString("INSERT INTO sync_mutations (mutation_id, user_id, applied_at) VALUES ")
        for (index, id) in ids.enumerated() {
            statement.appendRow([id, userID, now], first: index == 0)
        }
        return statement
    }

    /// A multi-row `VALUES` insert of `columns` at `seqs`, in order (SQLite's form).
    private static func valuesInsert(_ columns: StoredColumns, at seqs: ClosedRange<Int64>) -> SQLQueryString {
        var statement = SQLQueryString(
            "INSERT INTO sync_records (id, entity, scope, fields, stamps, deleted, seq) VALUES ")
        for index in columns.ids.indices {
            statement.appendRow(
                [
                    columns.ids[index], columns.entities[index], columns.scopes[index], columns.fields[index],
                    columns.stamps[index], columns.deleted[index], seqs.lowerBound + Int64(index),
                ], first: index == 0)
        }
        statement.appendInterpolation(unsafeRaw: " " + onConflict)
        return statement
    }

    /// A record is its scope and id; its entity never changes.
    private static let onConflict = """
        ON CONFLICT (scope, id) DO UPDATE SET fields = excluded.fields, stamps = excluded.stamps,
            deleted = excluded.deleted, seq = excluded.seq
        """
}

/// Records as `sync_records`' columns, a list per column.
private struct StoredColumns {
    var ids: [String] = []
    var entities: [String] = []
    var scopes: [String] = []
    var fields: [String] = []
    var stamps: [String] = []
    var deleted: [String?] = []

    init(_ records: [SyncRecord]) {
        for record in records {
            ids.append(record.id.lowercased)
            entities.append(record.entity)
            scopes.append(record.scope)
            // Written as JSONTree writes (keys sorted): the pull sends this text as it is.
            fields.append(JSONTree.object(JSONObject(record.fields.sorted { $0.key < $1.key })).text)
            stamps.append(FieldStamps.text(of: record.stamps))
            deleted.append(record.deleted?.description)
        }
    }
}

extension SQLQueryString {
    /// Appends one row of a multi-row `VALUES` list, its values bound: `(…)`, or `, (…)` after the first.
    fileprivate mutating func appendRow(_ values: [any Encodable & Sendable], first: Bool) {
        appendInterpolation(unsafeRaw: first ? "(" : ", (")
        for (index, value) in values.enumerated() {
            if index > 0 { appendInterpolation(unsafeRaw: ", ") }
            appendInterpolation(bind: value)
        }
        appendInterpolation(unsafeRaw: ")")
    }
}

private struct ScopeCounter: Decodable {
    var floor: Int64
    var scope: String?
    var value: Int64?
}

/// A `sync_records` row: `fields` and `stamps` are the JSON objects the server wrote.
struct StoredRecord: Decodable, Sendable {
    var id: String
    var entity: String
    var scope: String
    var fields: String
    var stamps: String
    var deleted: String?
    var seq: Int64

    /// The record; without `stamps` (pages that only show fields) its stamps stay empty, which
    /// saves decoding half of each row.
    func record(stamps withStamps: Bool = true) throws -> SyncRecord {
        guard let uuid = UUID(text: id) else { throw SyncStorageError("bad id \(id)") }
        var record = SyncRecord(entity: entity, id: uuid, scope: scope)
        // Read without JSON coders: the rules load records for every mutation.
        guard case .object(let object)? = JSONTree.parse(text: fields) else {
            throw SyncStorageError("bad fields of \(id)")
        }
        record.fields = object.dictionary
        if withStamps {
            guard let stamps = FieldStamps.parse(stamps) else { throw SyncStorageError("bad stamps of \(id)") }
            record.stamps = stamps
        }
        record.deleted = deleted.flatMap(HLC.init)
        return record
    }
}

struct SyncStorageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
