import Foundation
import SQLKit

/// A Kith user's Monica account: the integer id Monica objects carry as `account.id`, and which
/// contact is the user themself.
struct MonicaAccount: Sendable {
    let id: Int64
    let meContactID: Int64?
    /// Moves on with every change to the account's contacts that search can see.
    let contactsVersion: Int64
}

/// Finds a user's Monica account, creating it with Monica's defaults (genders, contact field
/// types, relationship and activity types) on the user's first `/api` request.
struct MonicaAccounts: Sendable {
    let database: KithDatabase

    func account(userID: String, now: Int64) async throws -> MonicaAccount {
        if let found = try await find(userID: userID) { return found }
        do {
            try await database.transaction { sql in
                let id = try await sql.insert(into: "monica_accounts")
                    .columns("user_id", "created_at", "updated_at")
                    .values(SQLBind(userID), SQLBind(now), SQLBind(now))
                    .returning("id").first()?.decode(column: "id", as: Int64.self)
                guard let id else { throw MonicaStorageError("creating a Monica account returned no id") }
                try await MonicaDefaults.seed(sql, account: id, now: now)
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

    private func find(userID: String) async throws -> MonicaAccount? {
        try await database.run { sql in
            try await sql.select().columns("id", "me_contact_id", "contacts_version").from("monica_accounts").where(
                "user_id", .equal, userID
            )
            .first().map {
                MonicaAccount(
                    id: try $0.decode(column: "id", as: Int64.self),
                    meContactID: try $0.decode(column: "me_contact_id", as: Int64?.self),
                    contactsVersion: try $0.decode(column: "contacts_version", as: Int64.self))
            }
        }
    }

    func setMeContact(account: Int64, contactID: Int64?, now: Int64) async throws {
        try await database.run { sql in
            try await sql.update("monica_accounts").set("me_contact_id", to: SQLBind(DBValue.int(contactID)))
                .set("updated_at", to: SQLBind(now)).where("id", .equal, account).run()
        }
    }
}
