import Foundation
import SQLKit
import Synchronization

/// The storage side of an `/api` resource. Every method of a repository is one unit of work:
/// one transaction for a write (all of it or nothing), one snapshot for a read. Handlers call
/// repositories and never write SQL; repositories never see the request.
protocol MonicaRepository: Sendable {
    var database: KithDatabase { get }
}

extension MonicaRepository {
    func reading<T: Sendable>(_ account: Int64, _ body: @escaping @Sendable (MonicaStorage) async throws -> T)
        async throws -> T
    {
        try await database.read { [engine = database.engine] sql in
            try await body(MonicaStorage(sql: sql, account: account, engine: engine))
        }
    }

    func writing<T: Sendable>(_ account: Int64, _ body: @escaping @Sendable (MonicaStorage) async throws -> T)
        async throws -> T
    {
        try await writingCards(account, body).result
    }

    /// The same, with the account's `cards_version` as the write left it (the one before it is
    /// one less: every write moves it once).
    func writingCards<T: Sendable>(
        _ account: Int64, _ body: @escaping @Sendable (MonicaStorage) async throws -> T
    ) async throws -> (result: T, cardsVersion: Int64) {
        try await database.transaction { [engine = database.engine] sql in
            let storage = MonicaStorage(sql: sql, account: account, engine: engine, versions: VersionMoves())
            let result = try await body(storage)
            return (result, try await storage.cardsChanged())
        }
    }
}

/// One unit of work's view of one account's tables.
struct MonicaStorage: Sendable {
    let sql: any SQLDatabase
    let account: Int64
    /// Which database: a change that checks `If-Match` locks its row on PostgreSQL (`check`).
    let engine: KithDatabase.Engine
    /// In a repository's write, the account's versions that are to move when it ends, all in one
    /// statement (`cardsChanged`); nil: each moves at once.
    var versions: VersionMoves? = nil

    func table<Record: MonicaRecord>(_ type: Record.Type) -> MonicaTableStore<Record> {
        MonicaTableStore(sql: sql, account: account)
    }

    var contacts: MonicaTableStore<ContactRecord> { table(ContactRecord.self) }

    var details: ContactDetailsLoader { ContactDetailsLoader(sql: sql, account: account) }

    /// Refuses a change to record `id` that `ifMatch` says was made against another version (412),
    /// before the change writes anything. The row stays locked until the transaction ends: on
    /// PostgreSQL by `FOR UPDATE` (another change of it waits, then sees this one's result); on
    /// SQLite the write transaction already holds the database. Nothing to do without `If-Match`.
    func check<Record: MonicaRecord>(_ ifMatch: IfMatch?, _ type: Record.Type, id: Int64) async throws {
        guard let ifMatch else { return }
        try ifMatch.check(try await table(type).find(id, forUpdate: engine == .postgres))
    }

    /// Tells the account's address book (CardDAV) to look at its contacts again: every write to
    /// the account's tables moves it, whatever it changed (a note, a tag's name, an address all
    /// show on a card), so no write can be missed; `DAVItemStore` then compares cards.
    /// The contacts' version moves with it if `contactsChanged` was called in the same write.
    @discardableResult
    func cardsChanged() async throws -> Int64 {
        let contacts: Int64 = versions?.takeContacts() == true ? 1 : 0
        return try await sql.raw(
            """
            UPDATE monica_accounts SET cards_version = cards_version + 1, contacts_version = contacts_version + \(bind: contacts)
            WHERE id = \(bind: account) RETURNING cards_version
            """
        ).first()?.decode(column: "cards_version", as: Int64.self) ?? 0
    }

    /// Tells every server's contact index (`ContactIndex`) that the account's contacts changed:
    /// when the write ends, with the cards' version (it commits with the change either way).
    func contactsChanged() async throws {
        if let versions {
            versions.contactsMoved()
            return
        }
        try await sql.raw(
            "UPDATE monica_accounts SET contacts_version = contacts_version + 1 WHERE id = \(bind: account)"
        ).run()
    }
}

/// What a write has asked to move of its account's versions so far: one statement at the end
/// instead of one each (a round trip on PostgreSQL).
final class VersionMoves: Sendable {
    private let contacts = Mutex(false)

    func contactsMoved() { contacts.withLock { $0 = true } }

    /// Whether the contacts' version is to move, and forgets it.
    func takeContacts() -> Bool { contacts.withLock { moved in defer { moved = false }; return moved } }
}
