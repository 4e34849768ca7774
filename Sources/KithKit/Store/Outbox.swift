import Foundation
import GRDB
import KithCore

/// Mutations made on this device and not yet acknowledged by the server. A row is written in the
/// same transaction as the local change it describes, so a crash never loses a queued edit.
enum Outbox {
    static func append(_ mutation: Mutation, _ db: Database) throws {
        // Every local save queues one: the statement is prepared once, the fields written without
        // `JSONEncoder` (keys sorted, as it wrote them).
        let fields = String(decoding: mutation.fields.jsonBytes, as: UTF8.self)
        try db.cachedStatement(
            sql: """
                INSERT INTO outbox (mutation_id, entity, record_id, scope, op, fields, hlc)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                mutation.mutationId.lowercased, mutation.entity, mutation.id.lowercased, mutation.scope,
                mutation.op.rawValue, fields, mutation.hlc.description,
            ])
    }

    static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0
    }

    /// The oldest queued mutations made after `seq` (all of them when nil), at most `limit` of them
    /// and about `maxBytes` of JSON (always at least one), in the order they were made.
    static func oldest(limit: Int, maxBytes: Int, after seq: Int64? = nil, _ db: Database) throws -> OutboxBatch {
        var batch = OutboxBatch(mutations: [], lastSeq: seq ?? 0)
        var bytes = 0
        let rows = try Row.fetchCursor(
            db, sql: "SELECT * FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?", arguments: [seq ?? 0, limit])
        while let row = try rows.next() {
            let fields: String = row["fields"]
            // The envelope around the fields (ids, entity, scope, stamp) is under 300 bytes.
            bytes += fields.utf8.count + 300
            if bytes > maxBytes && !batch.mutations.isEmpty { break }
            batch.mutations.append(try mutation(from: row))
            batch.lastSeq = row["seq"]
        }
        return batch
    }

    /// Queued mutations of one record, oldest first.
    static func mutations(of entity: String, _ recordId: UUID, _ db: Database) throws -> [Mutation] {
        try Row.fetchAll(
            try db.cachedStatement(sql: "SELECT * FROM outbox WHERE record_id = ? AND entity = ? ORDER BY seq"),
            arguments: [recordId.lowercased, entity]
        ).map(mutation(from:))
    }

    /// Removes these mutations (acknowledged or refused by the server), a statement per 500.
    static func remove(_ mutationIds: [UUID], _ db: Database) throws {
        for ids in chunks(of: mutationIds.map(\.lowercased)) {
            try db.execute(
                sql: "DELETE FROM outbox WHERE mutation_id IN (\(databaseQuestionMarks(count: ids.count)))",
                arguments: StatementArguments(ids))
        }
    }

    /// Which of `records` have mutations queued here, a statement per 500.
    static func queuedRecords(among records: [RecordStorage.Key], _ db: Database) throws -> Set<RecordStorage.Key> {
        var queued: Set<RecordStorage.Key> = []
        for ids in chunks(of: Array(Set(records.map(\.id.lowercased)))) {
            let rows = try Row.fetchAll(
                db,
                sql:
                    "SELECT DISTINCT entity, record_id FROM outbox WHERE record_id IN (\(databaseQuestionMarks(count: ids.count)))",
                arguments: StatementArguments(ids))
            for row in rows {
                guard let id = UUID(text: row["record_id"]) else { continue }
                queued.insert(RecordStorage.Key(entity: row["entity"], id: id))
            }
        }
        return queued
    }

    /// Lists of at most 500 ids: far below SQLite's limit of bound values in any version a device runs.
    private static func chunks(of ids: [String]) -> [ArraySlice<String>] {
        stride(from: 0, to: ids.count, by: 500).map { ids[$0..<min($0 + 500, ids.count)] }
    }

    /// Drops the queued mutations of a scope this account can no longer write (a family it left):
    /// the server would only refuse them.
    static func removeScope(_ scope: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM outbox WHERE scope = ?", arguments: [scope])
    }

    static func noteFailure(_ mutationIds: [UUID], error: String, _ db: Database) throws {
        for id in mutationIds {
            try db.execute(
                sql: "UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE mutation_id = ?",
                arguments: [error, id.lowercased])
        }
    }

    private static func mutation(from row: Row) throws -> Mutation {
        let texts: [String] = [row["mutation_id"], row["record_id"], row["op"], row["hlc"]]
        guard let mutationId = UUID(text: texts[0]), let id = UUID(text: texts[1]),
            let op = Mutation.Operation(rawValue: texts[2]), let hlc = HLC(texts[3])
        else { throw KithError.storage("an outbox row is damaged: \(texts)") }
        guard case .object(let fields)? = JSONTree.parse(text: row["fields"]) else {
            throw KithError.storage("an outbox row's fields are damaged: \(texts)")
        }
        return Mutation(
            mutationId: mutationId, entity: row["entity"], id: id, scope: row["scope"], op: op,
            fields: fields.dictionary,
            hlc: hlc)
    }
}

/// Queued mutations read for one push, and the place in the outbox after the last of them, where
/// the next batch begins.
struct OutboxBatch: Sendable, Equatable {
    var mutations: [Mutation]
    var lastSeq: Int64
}
