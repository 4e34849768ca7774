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
            return try await body(SyncTransaction(sql: sql, scope: scope))
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

    /// The scopes holding at least one live record of `entity` (the accounts with Nutrition days).
    func scopes(withLive entity: String) async throws -> [String] {
        try await database.run { sql in
            try await sql.raw(
                "SELECT DISTINCT scope FROM sync_records WHERE entity = \(bind: entity) AND deleted IS NULL ORDER BY scope"
            ).all(decodingColumn: "scope", as: String.self)
        }
    }

    /// The record with this id, deleted or not, whoever owns it (callers check the scope).
    func record(_ id: UUID) async throws -> SyncRecord? {
        try await database.run { sql in
            try await sql.raw("SELECT * FROM sync_records WHERE id = \(bind: id.lowercased)").record(StoredRecord.self)?
                .record()
        }
    }

    fileprivate static func live(_ entities: Set<String>, in scope: String, stamps: Bool, sql: any SQLDatabase)
        async throws -> [SyncRecord]
    {
        guard !entities.isEmpty else { return [] }
        return try await sql.raw(
            "SELECT * FROM sync_records WHERE scope = \(bind: scope) AND entity IN (\(binds: Array(entities))) AND deleted IS NULL"
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

    /// Per scope among `scopes`, its latest change after `seq`, if any: what a live socket may have
    /// missed while nudges could not reach this server.
    func latestChanges(in scopes: [String], after seq: Int64) async throws -> [ScopeChange] {
        var latest: [ScopeChange] = []
        // Bounded IN lists: PostgreSQL takes at most 65535 bound values per statement.
        for start in stride(from: 0, to: scopes.count, by: 1000) {
            let batch = Array(scopes[start..<min(start + 1000, scopes.count)])
            let rows = try await database.read { sql in
                try await sql.raw(
                    """
                    SELECT scope, MAX(seq) AS seq FROM sync_records
                    WHERE scope IN (\(binds: batch)) AND seq > \(bind: seq)
                    GROUP BY scope
                    """
                ).records(LatestChange.self)
            }
            latest += rows.map { ScopeChange(scope: $0.scope, seq: $0.seq) }
        }
        return latest
    }

    /// The latest sequence value: where a pull that has seen everything stands.
    func currentSequenceValue() async throws -> Int64 {
        try await database.read { sql in
            try await sql.raw("SELECT value FROM sync_counter WHERE id = 1").first(decodingColumn: "value", as: Int64.self) ?? 0
        }
    }
}

/// What `SyncWriter` stores and loads inside one scope's transaction (`SyncRepository.inScope`).
struct SyncTransaction: Sendable {
    let sql: any SQLDatabase
    let scope: String

    /// Whether `userID` had this mutation applied before (mutation ids are unique per account).
    func wasApplied(_ mutationID: UUID, by userID: String) async throws -> Bool {
        try await sql.raw(
            """
            SELECT mutation_id FROM sync_mutations
            WHERE user_id = \(bind: userID) AND mutation_id = \(bind: mutationID.lowercased)
            """
        ).first() != nil
    }

    /// The record with this id as stored (deleted or not, in whatever scope), and its change.
    func record(_ id: UUID) async throws -> (record: SyncRecord, change: ChangeDTO)? {
        guard
            let stored = try await sql.raw("SELECT * FROM sync_records WHERE id = \(bind: id.lowercased)")
                .record(StoredRecord.self)
        else { return nil }
        return (try stored.record(), try stored.change())
    }

    /// The live records of `entities` in this scope, by entity (what rules across records read).
    func liveRecords(_ entities: Set<String>) async throws -> [String: [SyncRecord]] {
        Dictionary(grouping: try await SyncRepository.live(entities, in: scope, stamps: true, sql: sql), by: \.entity)
    }

    /// The next value of the one change counter; updating its row inside the transaction makes
    /// writers take turns, so sequence order is commit order and a pull never skips a change.
    /// One statement (`RETURNING`, SQLite 3.35+ and PostgreSQL): on PostgreSQL each statement is a
    /// round trip, and a push pays this one per mutation.
    func nextSequenceValue() async throws -> Int64 {
        guard
            let value = try await sql.raw("UPDATE sync_counter SET value = value + 1 WHERE id = 1 RETURNING value")
                .first(decodingColumn: "value", as: Int64.self)
        else { throw SyncStorageError("the change counter's row is missing") }
        return value
    }

    func remember(_ mutation: Mutation, userID: String, now: Int64) async throws {
        try await sql.raw(
            """
            INSERT INTO sync_mutations (mutation_id, user_id, applied_at)
            VALUES (\(bind: mutation.mutationId.lowercased), \(bind: userID), \(bind: now))
            """
        ).run()
    }

    func write(_ record: SyncRecord, seq: Int64, exists: Bool) async throws {
        // Written as JSONTree writes (keys sorted): the pull sends this text as it is.
        let fields = JSONTree.object(JSONObject(record.fields.sorted { $0.key < $1.key })).text
        let stamps = FieldStamps.text(of: record.stamps)
        let deleted = record.deleted?.description
        let id = record.id.lowercased
        if exists {
            try await sql.raw(
                """
                UPDATE sync_records SET fields = \(bind: fields), stamps = \(bind: stamps), deleted = \(bind: deleted),
                    seq = \(bind: seq)
                WHERE id = \(bind: id)
                """
            ).run()
        } else {
            try await sql.raw(
                """
                INSERT INTO sync_records (id, entity, scope, fields, stamps, deleted, seq)
                VALUES (\(bind: id), \(bind: record.entity), \(bind: record.scope), \(bind: fields), \(bind: stamps),
                        \(bind: deleted), \(bind: seq))
                """
            ).run()
        }
    }
}

private struct LatestChange: Decodable {
    var scope: String
    var seq: Int64
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
        guard let uuid = UUID(uuidString: id) else { throw SyncStorageError("bad id \(id)") }
        var record = SyncRecord(entity: entity, id: uuid, scope: scope)
        // Read without JSON coders: the rules load records for every mutation (issue 18).
        guard case .object(let object)? = JSONTree.parse(text: fields) else { throw SyncStorageError("bad fields of \(id)") }
        record.fields = object.dictionary
        if withStamps {
            guard let stamps = FieldStamps.parse(stamps) else { throw SyncStorageError("bad stamps of \(id)") }
            record.stamps = stamps
        }
        record.deleted = deleted.flatMap(HLC.init)
        return record
    }

    func change() throws -> ChangeDTO {
        ChangeDTO(record: try record(), seq: seq)
    }
}

struct SyncStorageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
