import Foundation
import KithCore
import SQLKit

/// Storage of synced records, the change sequence and applied mutation ids.
struct SyncRepository: Sendable {
    let database: KithDatabase

    enum PushOutcome: Sendable {
        /// Merged; `seq` is the record's new sequence value, nil when the merge changed nothing
        /// (every field already had a later write).
        case applied(seq: Int64?)
        /// The mutation id was applied before: nothing changes.
        case duplicate
        /// Refused, with the record's current state when there is one.
        case rejected(code: String, message: String, current: ChangeDTO?)
    }

    /// Applies one mutation atomically: its idempotency record, the merge and the new sequence value
    /// commit together or not at all. `validate` sees whether the record is new; `rules` (rules
    /// across records) see the scope's other records in the same transaction, and their cascades
    /// (a year's people) are deleted with the record.
    func apply(
        _ mutation: Mutation, userID: String, now: Int64, rules: [any RecordRule] = [],
        validate: @escaping @Sendable (_ isCreation: Bool) -> APIErrorDetail?
    ) async throws -> PushOutcome {
        try await database.transaction { [engine = database.engine] sql in
            // PostgreSQL runs transactions side by side: without this, two writes to one scope could
            // both pass a rule across records (two years named 2026) or both see a mutation id as
            // new. One scope's writes take turns; SQLite's transactions already do.
            if engine == .postgres {
                try await sql.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: mutation.scope)))").run()
            }
            let seen = try await sql.raw(
                """
                SELECT mutation_id FROM sync_mutations
                WHERE user_id = \(bind: userID) AND mutation_id = \(bind: mutation.mutationId.uuidString.lowercased())
                """
            ).first()
            if seen != nil { return .duplicate }

            let id = mutation.id.uuidString.lowercased()
            var record = SyncRecord(entity: mutation.entity, id: mutation.id, scope: mutation.scope)
            let stored = try await sql.raw("SELECT * FROM sync_records WHERE id = \(bind: id)").first(decoding: StoredRecord.self)
            if let stored {
                let current = try stored.record()
                guard current.entity == mutation.entity, current.scope == mutation.scope else {
                    // Ids are global: another entity or scope owning this id is not the caller's to touch.
                    return .rejected(code: "forbidden", message: "This record belongs elsewhere.", current: nil)
                }
                record = current
            }
            if mutation.op == .upsert, let problem = validate(stored == nil) {
                return .rejected(code: problem.code, message: problem.message, current: try stored?.change())
            }
            if !rules.isEmpty {
                let related = try await liveRecords(Set(rules.flatMap(\.reads)), in: mutation.scope, sql: sql)
                let current = stored == nil ? nil : record
                for rule in rules {
                    if let problem = rule.problem(with: mutation, current: current, records: related) {
                        return .rejected(code: problem.code, message: problem.message, current: try stored?.change())
                    }
                }
            }
            switch record.merge(mutation) {
            case .ignoredDeleted:
                return .rejected(code: "deleted", message: "This record was deleted.", current: try stored?.change())
            case .superseded:
                try await remember(mutation, userID: userID, now: now, sql: sql)
                return .applied(seq: nil)
            case .changed:
                var seq = try await nextSequenceValue(sql)
                try await write(record, seq: seq, exists: stored != nil, sql: sql)
                try await remember(mutation, userID: userID, now: now, sql: sql)
                if mutation.op == .delete {
                    for rule in rules where !rule.cascadeReads.isEmpty {
                        let related = try await liveRecords(Set(rule.cascadeReads), in: mutation.scope, sql: sql)
                        for var dependent in rule.cascade(of: mutation, records: related) {
                            // The dependents share the deletion's stamp: every replica computes the same.
                            dependent.merge(
                                Mutation(
                                    mutationId: mutation.mutationId, entity: dependent.entity, id: dependent.id,
                                    scope: dependent.scope, op: .delete, hlc: mutation.hlc))
                            seq = try await nextSequenceValue(sql)
                            try await write(dependent, seq: seq, exists: true, sql: sql)
                        }
                    }
                }
                return .applied(seq: seq)
            }
        }
    }

    /// The live records of `entities` in `scope`, fields only (no stamps): what the web pages show.
    func liveFields(_ entities: Set<String>, in scope: String) async throws -> [SyncRecord] {
        try await database.run { sql in try await live(entities, in: scope, stamps: false, sql: sql) }
    }

    /// The record with this id, deleted or not, whoever owns it (callers check the scope).
    func record(_ id: UUID) async throws -> SyncRecord? {
        try await database.run { sql in
            try await sql.raw("SELECT * FROM sync_records WHERE id = \(bind: id.lowercased)").first(decoding: StoredRecord.self)?
                .record()
        }
    }

    /// The live records of `entities` in `scope`, by entity (what rules across records read).
    private func liveRecords(_ entities: Set<String>, in scope: String, sql: any SQLDatabase) async throws
        -> [String: [SyncRecord]]
    {
        Dictionary(grouping: try await live(entities, in: scope, stamps: true, sql: sql), by: \.entity)
    }

    private func live(_ entities: Set<String>, in scope: String, stamps: Bool, sql: any SQLDatabase) async throws
        -> [SyncRecord]
    {
        guard !entities.isEmpty else { return [] }
        return try await sql.raw(
            "SELECT * FROM sync_records WHERE scope = \(bind: scope) AND entity IN (\(binds: Array(entities))) AND deleted IS NULL"
        ).all(decoding: StoredRecord.self).map { try $0.record(stamps: stamps) }
    }

    /// Changes after each scope's position, oldest first across scopes, at most `limit`.
    func changes(after positions: [String: Int64], limit: Int) async throws -> [ChangeDTO] {
        guard !positions.isEmpty else { return [] }
        return try await database.run { sql in
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
            let rows = try await sql.raw(
                "SELECT * FROM sync_records WHERE \(condition) ORDER BY seq LIMIT \(bind: limit)"
            ).all(decoding: StoredRecord.self)
            return try rows.map { try $0.change() }
        }
    }

    /// Per scope among `scopes`, its latest change after `seq`, if any: what a live socket may have
    /// missed while nudges could not reach this server.
    func latestChanges(in scopes: [String], after seq: Int64) async throws -> [ScopeChange] {
        var latest: [ScopeChange] = []
        // Bounded IN lists: PostgreSQL takes at most 65535 bound values per statement.
        for start in stride(from: 0, to: scopes.count, by: 1000) {
            let batch = Array(scopes[start..<min(start + 1000, scopes.count)])
            let rows = try await database.run { sql in
                try await sql.raw(
                    """
                    SELECT scope, MAX(seq) AS seq FROM sync_records
                    WHERE scope IN (\(binds: batch)) AND seq > \(bind: seq)
                    GROUP BY scope
                    """
                ).all(decoding: LatestChange.self)
            }
            latest += rows.map { ScopeChange(scope: $0.scope, seq: $0.seq) }
        }
        return latest
    }

    /// The latest sequence value: where a pull that has seen everything stands.
    func currentSequenceValue() async throws -> Int64 {
        try await database.run { sql in
            try await sql.raw("SELECT value FROM sync_counter WHERE id = 1").first(decodingColumn: "value", as: Int64.self) ?? 0
        }
    }

    private func nextSequenceValue(_ sql: any SQLDatabase) async throws -> Int64 {
        try await sql.raw("UPDATE sync_counter SET value = value + 1 WHERE id = 1").run()
        return try await sql.raw("SELECT value FROM sync_counter WHERE id = 1").first(decodingColumn: "value", as: Int64.self) ?? 0
    }

    private func remember(_ mutation: Mutation, userID: String, now: Int64, sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            INSERT INTO sync_mutations (mutation_id, user_id, applied_at)
            VALUES (\(bind: mutation.mutationId.uuidString.lowercased()), \(bind: userID), \(bind: now))
            """
        ).run()
    }

    private func write(_ record: SyncRecord, seq: Int64, exists: Bool, sql: any SQLDatabase) async throws {
        let fields = String(decoding: try JSONEncoder().encode(record.fields), as: UTF8.self)
        let stamps = String(decoding: try JSONEncoder().encode(record.stamps), as: UTF8.self)
        let deleted = record.deleted?.description
        let id = record.id.uuidString.lowercased()
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

/// A `sync_records` row.
private struct StoredRecord: Decodable {
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
        let decoder = JSONDecoder()
        record.fields = try decoder.decode([String: JSONValue].self, from: Data(fields.utf8))
        if withStamps { record.stamps = try decoder.decode([String: HLC].self, from: Data(stamps.utf8)) }
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
