import Foundation
import GRDB
import KithCore

/// An address change made on this device and not yet accepted by the server.
public struct PendingAddressEdit: Sendable, Equatable {
    public enum Action: String, Sendable { case create, update, delete }

    public let seq: Int64
    public let action: Action
    /// The address's id: negative (temporary) for an address the server has not seen yet.
    public let addressID: Int
    public let contactID: Int
    public let input: MonicaAddressInput?
    public let attempts: Int
    public let lastError: String?
}

/// An address change the server refused (a 422 or 404): it was taken off the queue and the
/// server's version restored; this says what did not stick and why.
public struct FailedAddressEdit: Sendable, Equatable {
    /// Where the edit stood in the queue.
    let seq: Int64
    public let action: PendingAddressEdit.Action
    public let addressID: Int
    public let contactID: Int
    public let message: String
    public let failedAt: Date
}

/// The queue of address edits: written with the cached address in one transaction, so what the
/// person sees and what will be sent never disagree.
extension ContactCache {
    /// Adds an address on this device, with a temporary (negative) id, queued for creation.
    func queueCreation(of input: MonicaAddressInput, contact: MonicaContactSummary?, at date: Date) throws
        -> MonicaAddress
    {
        try write { db in
            let id = try Int.fetchOne(db, sql: "SELECT next_temporary_id FROM cache_state") ?? -1
            try db.execute(sql: "UPDATE cache_state SET next_temporary_id = ?", arguments: [id - 1])
            let address = MonicaAddress(id: id, contact: contact, input.address)
            try Self.saveAddress(address, contactID: input.contactID, db)
            try Self.enqueue(.create, id: id, input: input, at: date, db)
            return address
        }
    }

    /// Replaces an address on this device; queued as an update (or folded into its queued creation).
    func queueUpdate(of id: Int, to input: MonicaAddressInput, at date: Date) throws -> MonicaAddress {
        try write { db in
            guard let body = try Data.fetchOne(db, sql: "SELECT body FROM addresses WHERE id = ?", arguments: [id])
            else {
                throw MonicaClientError.notFound
            }
            let old = try CacheCoding.decode(MonicaAddress.self, body)
            var address = MonicaAddress(id: id, contact: old.contact, input.address)
            address.uuid = old.uuid
            address.createdAt = old.createdAt
            try Self.saveAddress(address, contactID: input.contactID, db)
            let queued = try Row.fetchOne(
                db,
                sql:
                    "SELECT seq FROM address_edits WHERE address_id = ? AND action IN ('create', 'update') ORDER BY seq DESC",
                arguments: [id])
            if let seq: Int64 = queued?["seq"] {
                // One request with the latest fields does what the queued one and this would.
                try db.execute(
                    sql: "UPDATE address_edits SET input = ? WHERE seq = ?",
                    arguments: [try CacheCoding.encode(input), seq])
            } else {
                try Self.enqueue(.update, id: id, input: input, at: date, db)
            }
            return address
        }
    }

    /// Removes an address on this device; queued as a deletion, unless the server never had it.
    func queueDeletion(of id: Int, at date: Date) throws {
        try write { db in
            guard
                let contactID = try Int.fetchOne(
                    db, sql: "SELECT contact_id FROM addresses WHERE id = ?", arguments: [id])
            else { throw MonicaClientError.notFound }
            try db.execute(sql: "DELETE FROM addresses WHERE id = ?", arguments: [id])
            let neverSent = id < 0
            try db.execute(sql: "DELETE FROM address_edits WHERE address_id = ?", arguments: [id])
            if !neverSent {
                try Self.enqueue(.delete, id: id, input: nil, contactID: contactID, at: date, db)
            }
        }
    }

    private static func enqueue(
        _ action: PendingAddressEdit.Action, id: Int, input: MonicaAddressInput?, contactID: Int? = nil, at date: Date,
        _ db: Database
    ) throws {
        try db.execute(
            sql: "INSERT INTO address_edits (action, address_id, contact_id, input, queued_at) VALUES (?, ?, ?, ?, ?)",
            arguments: [
                action.rawValue, id, contactID ?? input?.contactID ?? 0, try input.map(CacheCoding.encode),
                date.timeIntervalSince1970,
            ])
    }

    func pendingAddressEdits() throws -> [PendingAddressEdit] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM address_edits ORDER BY seq").map(Self.edit) }
    }

    func nextAddressEdit() throws -> PendingAddressEdit? {
        try read { db in try Row.fetchOne(db, sql: "SELECT * FROM address_edits ORDER BY seq LIMIT 1").map(Self.edit) }
    }

    /// The contacts with edits still queued: a refresh must not overwrite their addresses.
    func contactsWithPendingEdits() throws -> Set<Int> {
        try read { db in try Int.fetchSet(db, sql: "SELECT DISTINCT contact_id FROM address_edits") }
    }

    private static func edit(_ row: Row) throws -> PendingAddressEdit {
        let input: Data? = row["input"]
        return PendingAddressEdit(
            seq: row["seq"], action: PendingAddressEdit.Action(rawValue: row["action"]) ?? .update,
            addressID: row["address_id"], contactID: row["contact_id"],
            input: try input.map { try CacheCoding.decode(MonicaAddressInput.self, $0) }, attempts: row["attempts"],
            lastError: row["last_error"])
    }

    /// The server accepted `edit`; `saved` is its answer (nil for a deletion). A creation's
    /// temporary id becomes the server's everywhere: the cached address and later queued edits.
    func completeAddressEdit(_ edit: PendingAddressEdit, saved: MonicaAddress?) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM address_edits WHERE seq = ?", arguments: [edit.seq])
            guard var saved else { return }
            if edit.addressID != saved.id {
                let position = try Int.fetchOne(
                    db, sql: "SELECT position FROM addresses WHERE id = ?", arguments: [edit.addressID])
                try db.execute(sql: "DELETE FROM addresses WHERE id = ?", arguments: [edit.addressID])
                try db.execute(
                    sql: "UPDATE address_edits SET address_id = ? WHERE address_id = ?",
                    arguments: [saved.id, edit.addressID])
                try db.execute(
                    sql: "INSERT OR REPLACE INTO temporary_ids (temporary_id, address_id) VALUES (?, ?)",
                    arguments: [edit.addressID, saved.id])
                try Self.saveAddress(saved, contactID: edit.contactID, position: position, db)
                return
            }
            // A later edit of the same address is still queued: keep showing that one.
            let stillQueued =
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM address_edits WHERE address_id = ?)", arguments: [saved.id])
                ?? false
            if !stillQueued {
                if saved.contact == nil { saved.contact = try Self.addressBody(saved.id, db)?.contact }
                try Self.saveAddress(saved, contactID: edit.contactID, db)
            }
        }
    }

    private static func addressBody(_ id: Int, _ db: Database) throws -> MonicaAddress? {
        try Data.fetchOne(db, sql: "SELECT body FROM addresses WHERE id = ?", arguments: [id]).map {
            try CacheCoding.decode(MonicaAddress.self, $0)
        }
    }

    /// The server refused `edit` for good: it leaves the queue (with every later edit of an
    /// address that was never created) and is recorded as failed.
    func failAddressEdit(_ edit: PendingAddressEdit, message: String, at date: Date) throws {
        try write { db in
            var doomed = [edit]
            if edit.action == .create {
                doomed += try Row.fetchAll(
                    db, sql: "SELECT * FROM address_edits WHERE address_id = ? AND seq != ?",
                    arguments: [edit.addressID, edit.seq]
                ).map(Self.edit)
                try db.execute(sql: "DELETE FROM addresses WHERE id = ?", arguments: [edit.addressID])
            }
            for failed in doomed {
                try db.execute(sql: "DELETE FROM address_edits WHERE seq = ?", arguments: [failed.seq])
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO address_edit_failures (seq, action, address_id, contact_id, input, message, failed_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        failed.seq, failed.action.rawValue, failed.addressID, failed.contactID,
                        try failed.input.map(CacheCoding.encode), message, date.timeIntervalSince1970,
                    ])
            }
        }
    }

    /// A try that did not reach the server: the edit stays queued, with why.
    func noteAttempt(_ edit: PendingAddressEdit, error: String) throws {
        try write { db in
            try db.execute(
                sql: "UPDATE address_edits SET attempts = attempts + 1, last_error = ? WHERE seq = ?",
                arguments: [error, edit.seq])
        }
    }

    func failedAddressEdits() throws -> [FailedAddressEdit] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM address_edit_failures ORDER BY seq").map { row in
                FailedAddressEdit(
                    seq: row["seq"], action: PendingAddressEdit.Action(rawValue: row["action"]) ?? .update,
                    addressID: row["address_id"],
                    contactID: row["contact_id"], message: row["message"],
                    failedAt: Date(timeIntervalSince1970: row["failed_at"]))
            }
        }
    }

    /// Forgets refusals already reported another way (thrown to the caller who made the edit).
    func forgetFailedAddressEdits(_ failures: [FailedAddressEdit]) throws {
        try write { db in
            for failure in failures {
                try db.execute(sql: "DELETE FROM address_edit_failures WHERE seq = ?", arguments: [failure.seq])
            }
        }
    }

    func dismissFailedAddressEdits() throws {
        try write { db in try db.execute(sql: "DELETE FROM address_edit_failures") }
    }

    /// The server id a temporary id became, if it has been sent.
    func serverID(forTemporary id: Int) throws -> Int? {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT address_id FROM temporary_ids WHERE temporary_id = ?", arguments: [id])
        }
    }
}
