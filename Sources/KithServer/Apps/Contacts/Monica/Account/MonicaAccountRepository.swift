import Foundation
import KithCore
import SQLKit

/// Finds a user's Monica account, creating it with Monica's defaults (genders, contact field
/// types, activity and relationship types) on the user's first `/api` request.
struct MonicaAccountRepository: Sendable {
    let database: KithDatabase

    func account(userID: String, now: Int64) async throws -> MonicaAccount {
        if let found = try await find(userID: userID) { return found }
        do {
            try await database.transaction { [engine = database.engine] sql in
                let id = try await sql.insert(into: "monica_accounts").columns("user_id", "created_at", "updated_at")
                    .values(SQLBind(userID), SQLBind(now), SQLBind(now)).returning("id").first()?
                    .decode(column: "id", as: Int64.self)
                guard let id else { throw MonicaStorageError("creating a Monica account returned no id") }
                try await MonicaDefaults.seed(MonicaStorage(sql: sql, account: id, engine: engine), now: now)
            }
        } catch {
            // Two first requests at once: the other one created it (user_id is unique).
            if let found = try await find(userID: userID) { return found }
            throw error
        }
        guard let created = try await find(userID: userID) else {
            throw MonicaStorageError("the Monica account of \(userID) vanished after creation")
        }
        return created
    }

    /// Makes contact `contactID` the user themself (nil: nobody); it must be the account's.
    func setMeContact(account: Int64, contactID: Int64?, now: Int64) async throws -> WithContacts<MonicaAccount> {
        try await database.transaction { [engine = database.engine] sql in
            let storage = MonicaStorage(sql: sql, account: account, engine: engine)
            if let contactID { _ = try await storage.contacts.existing(contactID, attribute: "contact id") }
            try await sql.update("monica_accounts").set("me_contact_id", to: SQLBind(DBValue.int(contactID)))
                .set("updated_at", to: SQLBind(now)).where("id", .equal, account).run()
            return try await Self.withMe(try await Self.account(id: account, sql), storage)
        }
    }

    /// Writes the user's gifts' values in `currency` from now on (the account made if need be).
    func setCurrency(userID: String, _ currency: Currency, now: Int64) async throws {
        let account = try await account(userID: userID, now: now)
        try await database.transaction { sql in
            try await sql.update("monica_accounts").set("currency", to: SQLBind(currency.code))
                .set("updated_at", to: SQLBind(now)).where("id", .equal, account.id).run()
        }
    }

    /// The account with the short form of its "me" contact, if any.
    func withMe(_ account: MonicaAccount) async throws -> WithContacts<MonicaAccount> {
        try await database.read { [engine = database.engine] sql in
            try await Self.withMe(account, MonicaStorage(sql: sql, account: account.id, engine: engine))
        }
    }

    private static func withMe(_ account: MonicaAccount, _ storage: MonicaStorage) async throws
        -> WithContacts<MonicaAccount>
    {
        WithContacts(value: account, contacts: try await storage.details.summaries(account.meContactID.map { [$0] } ?? []))
    }

    /// The user's Monica account if they have one (made on their first `/api` request), without making it.
    func find(userID: String) async throws -> MonicaAccount? {
        try await database.read { sql in
            // Every /api request reads this: text with a bind, not a builder (MonicaTableStore says why).
            try await sql.raw(
                """
                SELECT id, me_contact_id, contacts_version, currency FROM monica_accounts
                WHERE user_id = \(bind: userID)
                """
            ).record(MonicaAccount.self)
        }
    }

    private static func account(id: Int64, _ sql: any SQLDatabase) async throws -> MonicaAccount {
        guard
            let found = try await sql.select().columns("id", "me_contact_id", "contacts_version", "currency")
                .from("monica_accounts").where("id", .equal, id).record(MonicaAccount.self)
        else { throw MonicaStorageError("the Monica account \(id) vanished") }
        return found
    }
}
