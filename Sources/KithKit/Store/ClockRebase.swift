import Foundation
import GRDB
import KithCore

/// A device whose clock runs ahead of the server's (set wrong, or wrong for a while and corrected
/// since) stamps its changes in the future, and the server refuses them (`clock_skew`): they would
/// win every conflict for as long. Nothing a person writes is dropped for that. The push's answer
/// carries the server's time; the device stamps by the server's time from then on (`offset`), moves
/// its clock back to it and re-stamps what it still has queued (`restamp`), and sends it again.
enum ClockRebase {
    /// Below this difference the device's own clock is used as it is: a round trip's delay is not
    /// a wrong clock, and a device on time keeps its own readings.
    static let tolerance: Int64 = 60_000

    /// What to add to this device's clock when it stamps: the server's time minus the device's, or
    /// nothing when they agree within `tolerance`.
    static func offset(serverTime: Int64, deviceTime: Int64) -> Int64 {
        let offset = serverTime - deviceTime
        return abs(offset) < tolerance ? 0 : offset
    }

    /// Re-stamps each queued change stamped further ahead of `serverTime` than the server accepts,
    /// oldest first, and the stamps of its record with it, from a clock moved back to the server's
    /// time (corrected `deviceTime`) but never before a stamp kept here: a change made after another
    /// still stamps after it. Returns how many changes were re-stamped.
    static func restamp(serverTime: Int64, deviceTime: Int64, storage: RecordStorage, _ db: Database) throws -> Int {
        guard var state = try SyncState.load(db) else { return 0 }
        let limit = wallText(serverTime + SyncLimits.maximumClockSkewMillis)
        state.clock.rebase(to: serverTime, notBefore: try latestStampKept(upTo: limit, storage: storage, db))
        let now = deviceTime + state.clockOffset
        let queued = try Row.fetchAll(
            db, sql: "SELECT seq, entity, record_id, hlc FROM outbox WHERE substr(hlc, 1, 15) > ? ORDER BY seq",
            arguments: [limit])
        for row in queued {
            let seq: Int64 = row["seq"]
            guard let old = HLC(row["hlc"] as String), let id = UUID(text: row["record_id"]) else {
                throw KithError.storage("an outbox row is damaged: \(seq)")
            }
            let new = state.clock.tick(now: now)
            try db.execute(sql: "UPDATE outbox SET hlc = ? WHERE seq = ?", arguments: [new.description, seq])
            guard var record = try storage.load(row["entity"], id, db) else { continue }
            var changed = false
            for (field, stamp) in record.stamps where stamp == old {
                record.stamps[field] = new
                changed = true
            }
            if record.deleted == old {
                record.deleted = new
                changed = true
            }
            if changed { try storage.store(record, db) }
        }
        try SyncState.saveClock(state.clock, db)
        return queued.count
    }

    /// The latest stamp held or pulled here (records, deletions, queued changes, the latest stamp
    /// ever pulled, the clock itself) whose wall time is at most `limit`: later ones are the queued
    /// changes about to be re-stamped. A pulled stamp counts even when a local edit replaced it: an
    /// edit made after seeing another device's must still stamp after it.
    private static func latestStampKept(upTo limit: String, storage: RecordStorage, _ db: Database) throws -> HLC? {
        var texts: [String?] = []
        for declaration in storage.catalog.declarations {
            let table = quoted(EntityTable.tableName(declaration.name))
            texts.append(
                try String.fetchOne(
                    db,
                    sql: "SELECT max(stamp.value) FROM \(table), json_each(\(table)._stamps) AS stamp WHERE substr(stamp.value, 1, 15) <= ?",
                    arguments: [limit]))
        }
        for (table, column) in [
            ("sync_tombstones", "hlc"), ("outbox", "hlc"), ("sync_state", "hlc"), ("sync_state", "received_hlc"),
        ] {
            texts.append(
                try String.fetchOne(
                    db, sql: "SELECT max(\(column)) FROM \(table) WHERE substr(\(column), 1, 15) <= ?", arguments: [limit]))
        }
        return texts.compactMap { $0.flatMap(HLC.init) }.max()
    }

    /// The first 15 characters of a stamp at `wall`: stamps compare as text.
    private static func wallText(_ wall: Int64) -> String {
        String(HLC(wallMillis: wall, counter: 0, node: "-").description.prefix(15))
    }
}
