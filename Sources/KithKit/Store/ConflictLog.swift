import Foundation
import GRDB
import KithCore

/// Every conflict a pull resolved on this device: which of this device's unsent
/// fields lost to, or won over, another device's, and edits of records deleted elsewhere. The merge
/// already decided; the log lets a person (`kith sync log`) or a developer see what was decided.
/// Bounded: the newest `capacity` entries are kept.
enum ConflictLog {
    static let capacity = 500

    static func append(_ conflict: RecordConflict, at time: Date, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO sync_conflicts (entity, record_id, kept_local, kept_remote, deleted_elsewhere, at)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                conflict.entity, conflict.id.lowercased, conflict.keptLocal.joined(separator: ","),
                conflict.keptRemote.joined(separator: ","), conflict.deletedElsewhere, time.timeIntervalSince1970,
            ])
        try db.execute(
            sql: "DELETE FROM sync_conflicts WHERE seq <= (SELECT MAX(seq) FROM sync_conflicts) - ?",
            arguments: [capacity])
    }

    static func entries(limit: Int, _ db: Database) throws -> [LoggedConflict] {
        try Row.fetchAll(
            db, sql: "SELECT * FROM sync_conflicts ORDER BY seq DESC LIMIT ?", arguments: [min(max(limit, 0), capacity)]
        ).compactMap { row in
            guard let id = UUID(text: row["record_id"]) else { return nil }
            func names(_ column: String) -> [String] {
                (row[column] as String).split(separator: ",").map(String.init)
            }
            return LoggedConflict(
                conflict: RecordConflict(
                    entity: row["entity"], id: id, keptLocal: names("kept_local"), keptRemote: names("kept_remote"),
                    deletedElsewhere: row["deleted_elsewhere"]),
                at: Date(timeIntervalSince1970: row["at"]))
        }
    }
}

/// A conflict and when this device resolved it.
public struct LoggedConflict: Sendable, Equatable {
    public let conflict: RecordConflict
    public let at: Date

    /// "kept here: calories; kept from another device: name", or what a deletion elsewhere meant.
    public var summary: String {
        if conflict.deletedElsewhere {
            return "deleted on another device; the changes made here were dropped"
        }
        var parts: [String] = []
        if !conflict.keptLocal.isEmpty { parts.append("kept here: " + conflict.keptLocal.joined(separator: ", ")) }
        if !conflict.keptRemote.isEmpty {
            parts.append("kept from another device: " + conflict.keptRemote.joined(separator: ", "))
        }
        return parts.joined(separator: "; ")
    }
}

extension LocalStore {
    /// The conflicts resolved on this device, newest first (at most `ConflictLog.capacity`).
    public func conflictLog(limit: Int = 100) throws -> [LoggedConflict] {
        try storageErrors { try writer.read { db in try ConflictLog.entries(limit: limit, db) } }
    }

    public func clearConflictLog() throws {
        try storageErrors { try writer.write { db in try db.execute(sql: "DELETE FROM sync_conflicts") } }
    }
}
