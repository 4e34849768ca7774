import Foundation
import SQLKit

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
            let storage = MonicaStorage(sql: sql, account: account, engine: engine)
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
    @discardableResult
    func cardsChanged() async throws -> Int64 {
        try await sql.raw(
            "UPDATE monica_accounts SET cards_version = cards_version + 1 WHERE id = \(bind: account) RETURNING cards_version"
        ).first()?.decode(column: "cards_version", as: Int64.self) ?? 0
    }

    /// Tells every server's contact index (`ContactIndex`) that the account's contacts changed.
    func contactsChanged() async throws {
        try await sql.raw(
            "UPDATE monica_accounts SET contacts_version = contacts_version + 1 WHERE id = \(bind: account)"
        ).run()
    }
}
