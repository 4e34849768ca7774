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
        try await database.read { sql in try await body(MonicaStorage(sql: sql, account: account)) }
    }

    func writing<T: Sendable>(_ account: Int64, _ body: @escaping @Sendable (MonicaStorage) async throws -> T)
        async throws -> T
    {
        try await database.transaction { sql in try await body(MonicaStorage(sql: sql, account: account)) }
    }
}

/// One unit of work's view of one account's tables.
struct MonicaStorage: Sendable {
    let sql: any SQLDatabase
    let account: Int64

    func table<Record: MonicaRecord>(_ type: Record.Type) -> MonicaTableStore<Record> {
        MonicaTableStore(sql: sql, account: account)
    }

    var contacts: MonicaTableStore<ContactRecord> { table(ContactRecord.self) }

    var details: ContactDetailsLoader { ContactDetailsLoader(sql: sql, account: account) }

    /// Tells every server's contact index (`ContactIndex`) that the account's contacts changed.
    func contactsChanged() async throws {
        try await sql.raw(
            "UPDATE monica_accounts SET contacts_version = contacts_version + 1 WHERE id = \(bind: account)"
        ).run()
    }
}
