import Foundation
import GRDB
import KithCore

/// The store's one `sync_state` row: this device's id (the HLC node), whose data the store holds,
/// the clock and how far this device's own clock is off the server's, the pull cursor and when a
/// sync last completed.
struct SyncState: Sendable {
    var clientId: UUID
    var scope: String
    var clock: HybridLogicalClock
    /// Milliseconds added to the device's clock for stamps (`ClockRebase.offset`).
    var clockOffset: Int64 = 0
    var cursor: String?
    var lastSyncAt: Date?

    /// The time this device stamps by: its own clock, corrected by what the server last said.
    func stampingTime(_ now: Date) -> Int64 { now.epochMillis + clockOffset }

    static func loadOrCreate(scope: String, _ db: Database) throws -> SyncState {
        if let state = try load(db) { return state }
        let clientId = UUID()
        try db.execute(
            sql: "INSERT INTO sync_state (id, client_id, scope) VALUES (1, ?, ?)", arguments: [clientId.lowercased, scope])
        return SyncState(clientId: clientId, scope: scope, clock: HybridLogicalClock(node: clientId.lowercased))
    }

    static func load(_ db: Database) throws -> SyncState? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM sync_state WHERE id = 1") else { return nil }
        let clientText: String = row["client_id"]
        guard let clientId = UUID(text: clientText) else { throw KithError.storage("bad client id \(clientText)") }
        let node = clientId.lowercased
        let last = (row["hlc"] as String?).flatMap(HLC.init)
        return SyncState(
            clientId: clientId, scope: row["scope"], clock: HybridLogicalClock(node: node, last: last),
            clockOffset: row["clock_offset"] ?? 0, cursor: row["cursor"], lastSyncAt: (row["last_sync_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }

    /// Pulls skip entities this app does not declare; when the declared set changes (an app
    /// update), the cursor starts over so records of newly declared entities arrive too.
    static func resetCursorIfEntitiesChanged(_ catalog: EntityCatalog, _ db: Database) throws {
        let names = catalog.declarations.map(\.name).joined(separator: ",")
        let stored = try String.fetchOne(db, sql: "SELECT entities FROM sync_state WHERE id = 1")
        guard stored != names else { return }
        try db.execute(sql: "UPDATE sync_state SET entities = ?, cursor = NULL WHERE id = 1", arguments: [names])
    }

    static func saveClock(_ clock: HybridLogicalClock, _ db: Database) throws {
        try db.execute(sql: "UPDATE sync_state SET hlc = ? WHERE id = 1", arguments: [clock.last.description])
    }

    /// Remembers `stamp` as pulled, when it is the latest so far (stamps compare as text).
    static func saveReceived(_ stamp: HLC, _ db: Database) throws {
        try db.execute(
            sql: "UPDATE sync_state SET received_hlc = ? WHERE id = 1 AND (received_hlc IS NULL OR received_hlc < ?)",
            arguments: [stamp.description, stamp.description])
    }

    static func saveClockOffset(_ offset: Int64, _ db: Database) throws {
        try db.execute(sql: "UPDATE sync_state SET clock_offset = ? WHERE id = 1", arguments: [offset])
    }

    static func saveCursor(_ cursor: String, _ db: Database) throws {
        try db.execute(sql: "UPDATE sync_state SET cursor = ? WHERE id = 1", arguments: [cursor])
    }

    static func saveLastSync(_ date: Date, _ db: Database) throws {
        try db.execute(sql: "UPDATE sync_state SET last_sync_at = ? WHERE id = 1", arguments: [date.timeIntervalSince1970])
    }
}
