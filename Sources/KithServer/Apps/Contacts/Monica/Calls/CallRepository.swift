import Foundation
import KithCore
import SQLKit

/// A call's fields as a write gives them (a write gives them all; its contact only on create).
struct CallInput: Sendable {
    let contactID: Int64?
    let calledAt: Int64
    let content: String?
    let contactCalled: Bool
}

struct CallRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource

    var owned: ContactOwnedRepository<CallRecord> { ContactOwnedRepository(database: database, ids: ids) }

    /// Creates a call (nil `id`) or changes call `id` (if it is still a version `ifMatch` names),
    /// then moves its contact's `last_called` to the contact's latest call.
    func save(account: Int64, id: Int64?, ifMatch: IfMatch?, _ input: CallInput, now: Int64) async throws
        -> WithContacts<CallRecord>
    {
        try await owned.save(
            account: account, id: id, ifMatch: ifMatch, now: now,
            columns: { storage, calls in
                if let id { _ = try await calls.existing(id, attribute: "call id") }
                var values: MonicaColumns = [
                    "called_at": .int(input.calledAt), "content": .text(input.content),
                    "contact_called": .bool(input.contactCalled),
                ]
                if id == nil, let contactID = input.contactID {
                    _ = try await storage.contacts.require(contactID)
                    values["contact_id"] = .int(contactID)
                }
                return values
            },
            then: { storage, call in try await Self.noteLastCall(of: call.contactID, storage) })
    }

    /// Deletes call `id`; its contact's `last_called` becomes the contact's latest call left.
    func delete(account: Int64, id: Int64, ifMatch: IfMatch?) async throws {
        try await owned.delete(account: account, id: id, ifMatch: ifMatch) { storage, call in
            try await Self.noteLastCall(of: call.contactID, storage)
        }
    }

    /// Monica's `meta.statistics` of a contact's calls: calls per year over the whole account,
    /// newest year first.
    func yearlyCounts(account: Int64) async throws -> [(year: String, count: Int64)] {
        try await reading(account) { storage in
            // The UTC year of `called_at` (milliseconds), counted by the database.
            let year =
                storage.engine == .postgres
                ? "CAST(EXTRACT(YEAR FROM to_timestamp(called_at / 1000.0) AT TIME ZONE 'UTC') AS INTEGER)"
                : "CAST(strftime('%Y', called_at / 1000.0, 'unixepoch') AS INTEGER)"
            let rows = try await storage.sql.raw(
                """
                SELECT \(unsafeRaw: year) AS year, COUNT(*) AS count FROM monica_calls \
                WHERE account_id = \(bind: storage.account) GROUP BY 1 ORDER BY 1 DESC
                """
            ).all()
            return try rows.map {
                (
                    UTCTimestamp.padded(try $0.decode(column: "year", as: Int.self), width: 4),
                    try $0.decode(column: "count", as: Int64.self)
                )
            }
        }
    }

    /// The contact's `last_called` is its latest call, or none; the contact's version does not
    /// move (a call is an object of its own, and a contact's form open elsewhere stays current).
    static func noteLastCall(of contactID: Int64, _ storage: MonicaStorage) async throws {
        try await storage.sql.raw(
            """
            UPDATE monica_contacts SET last_called = \
            (SELECT MAX(called_at) FROM monica_calls WHERE contact_id = \(bind: contactID)) \
            WHERE id = \(bind: contactID) AND account_id = \(bind: storage.account)
            """
        ).run()
    }
}
