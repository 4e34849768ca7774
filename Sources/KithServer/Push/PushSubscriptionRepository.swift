import Foundation
import KithCore
import SQLKit

/// Storage of `push_subscriptions`. Each method is one transaction.
struct PushSubscriptionRepository: Sendable {
    let database: KithDatabase

    /// What a subscription did: the device as stored, whether it is new, and the device it
    /// replaced when the account was full.
    struct Subscribed: Sendable {
        let device: PushSubscriptionRow
        let created: Bool
        let replaced: PushSubscriptionRow?
    }

    /// Stores `candidate` (a new device of its account) or, when the account already has its
    /// endpoint, updates that device's keys and expiry, and its kinds and name where given. An
    /// endpoint held by another account moves to this one: the browser profile it belongs to is
    /// now signed in here. A full account gives up the device unused longest.
    func subscribe(
        _ candidate: PushSubscriptionRow, kinds: String?, name: String?, devicesPerAccount: Int
    ) async throws -> Subscribed {
        let engine = database.engine
        return try await database.transaction { sql in
            // One account's subscriptions one at a time (SQLite's writer already is one), so two
            // at once cannot both find room for an eleventh.
            if engine == .postgres {
                try await sql.raw("SELECT id FROM users WHERE id = \(bind: candidate.userID) FOR UPDATE").run()
            }
            try await sql.raw(
                """
                DELETE FROM push_subscriptions
                WHERE endpoint = \(bind: candidate.endpoint) AND user_id <> \(bind: candidate.userID)
                """
            ).run()
            let devices = try await Self.devices(of: candidate.userID, sql: sql)
            if var known = devices.first(where: { $0.endpoint == candidate.endpoint }) {
                known.p256dh = candidate.p256dh
                known.auth = candidate.auth
                known.expiresAt = candidate.expiresAt
                known.updatedAt = candidate.updatedAt
                if let kinds { known.kinds = kinds }
                if let name { known.name = name }
                try await Self.update(known, sql: sql)
                return Subscribed(device: known, created: false, replaced: nil)
            }
            var replaced: PushSubscriptionRow?
            if devices.count >= devicesPerAccount {
                // Oldest touch first; the id breaks ties, so the choice is the same on every engine.
                let byAge = devices.sorted { ($0.lastSeen, $0.id) < ($1.lastSeen, $1.id) }
                for gone in byAge.prefix(devices.count - devicesPerAccount + 1) {
                    try await sql.raw("DELETE FROM push_subscriptions WHERE id = \(bind: gone.id)").run()
                    replaced = replaced ?? gone
                }
            }
            try await sql.raw(
                """
                INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, kinds, name, expires_at,
                                                created_at, updated_at, last_used_at)
                VALUES (\(bind: candidate.id), \(bind: candidate.userID), \(bind: candidate.endpoint),
                        \(bind: candidate.p256dh), \(bind: candidate.auth), \(bind: candidate.kinds),
                        \(bind: candidate.name), \(bind: candidate.expiresAt), \(bind: candidate.createdAt),
                        \(bind: candidate.updatedAt), NULL)
                ON CONFLICT (endpoint) DO NOTHING
                """
            ).run()
            let stored = try await sql.raw(
                "SELECT id FROM push_subscriptions WHERE endpoint = \(bind: candidate.endpoint)"
            ).first(decodingColumn: "id", as: String.self)
            // Another account subscribed the same browser in the same instant; its answer stands.
            guard stored == candidate.id else { throw PushSubscriptionConflict() }
            return Subscribed(device: candidate, created: true, replaced: replaced)
        }
    }

    func devices(of userID: String) async throws -> [PushSubscriptionRow] {
        try await database.read { sql in try await Self.devices(of: userID, sql: sql) }
    }

    /// Changes a device's kinds or name (nil: kept); nil when the account has no such device.
    func update(_ id: String, of userID: String, kinds: String?, name: String?, now: Int64) async throws
        -> PushSubscriptionRow?
    {
        try await database.transaction { sql in
            guard
                var device = try await sql.raw(
                    "SELECT * FROM push_subscriptions WHERE id = \(bind: id) AND user_id = \(bind: userID)"
                ).record(PushSubscriptionRow.self)
            else { return nil }
            if let kinds { device.kinds = kinds }
            if let name { device.name = name }
            device.updatedAt = now
            try await Self.update(device, sql: sql)
            return device
        }
    }

    /// Removes the account's device with `id`; whether it had one.
    func remove(_ id: String, of userID: String) async throws -> Bool {
        try await removeWhere("id", is: id, of: userID)
    }

    /// Removes the account's device with `endpoint`; whether it had one.
    func remove(endpoint: String, of userID: String) async throws -> Bool {
        try await removeWhere("endpoint", is: endpoint, of: userID)
    }

    private func removeWhere(_ column: String, is value: String, of userID: String) async throws -> Bool {
        try await database.transaction { sql in
            let found = try await sql.raw(
                "SELECT id FROM push_subscriptions WHERE \(ident: column) = \(bind: value) AND user_id = \(bind: userID)"
            ).first(decodingColumn: "id", as: String.self)
            guard let found else { return false }
            try await sql.raw("DELETE FROM push_subscriptions WHERE id = \(bind: found)").run()
            return true
        }
    }

    /// The device a push job is for; nil once it is gone.
    func subscription(_ id: String) async throws -> PushSubscriptionRow? {
        try await database.read { sql in
            try await sql.raw("SELECT * FROM push_subscriptions WHERE id = \(bind: id)").record(
                PushSubscriptionRow.self)
        }
    }

    /// Forgets a device its push service no longer knows (404, 410) or the server may not reach.
    func delete(_ id: String) async throws {
        try await database.run { sql in
            try await sql.raw("DELETE FROM push_subscriptions WHERE id = \(bind: id)").run()
        }
    }

    /// The accounts with a device that wants `kind`.
    func users(wanting kind: WebPushKind) async throws -> [String] {
        let rows = try await database.read { sql in
            try await sql.raw("SELECT user_id, kinds FROM push_subscriptions ORDER BY user_id").all()
        }
        var users: [String] = []
        for row in rows {
            let user = try row.decode(column: "user_id", as: String.self)
            let kinds = try row.decode(column: "kinds", as: String.self)
            if users.last != user, kinds.split(separator: ",").contains(Substring(kind.rawValue)) { users.append(user) }
        }
        return users
    }

    /// A push to the device was accepted at `now`.
    func markUsed(_ id: String, at now: Int64) async throws {
        try await database.run { sql in
            try await sql.raw("UPDATE push_subscriptions SET last_used_at = \(bind: now) WHERE id = \(bind: id)").run()
        }
    }

    /// The devices of `userIDs`, in the transaction `sql` belongs to (a notice's, so its pushes
    /// are planned with it).
    static func devices(of userIDs: [String], sql: any SQLDatabase) async throws -> [PushSubscriptionRow] {
        guard !userIDs.isEmpty else { return [] }
        return try await sql.raw(
            "SELECT * FROM push_subscriptions WHERE user_id \(in: userIDs) ORDER BY created_at, id"
        ).records(PushSubscriptionRow.self)
    }

    private static func devices(of userID: String, sql: any SQLDatabase) async throws -> [PushSubscriptionRow] {
        try await devices(of: [userID], sql: sql)
    }

    private static func update(_ device: PushSubscriptionRow, sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            UPDATE push_subscriptions SET p256dh = \(bind: device.p256dh), auth = \(bind: device.auth),
                kinds = \(bind: device.kinds), name = \(bind: device.name), expires_at = \(bind: device.expiresAt),
                updated_at = \(bind: device.updatedAt)
            WHERE id = \(bind: device.id)
            """
        ).run()
    }
}

/// Two accounts subscribed one endpoint at the same moment (one browser, two sign-ins): the
/// later is asked to try again, and then takes it over.
struct PushSubscriptionConflict: Error {}
