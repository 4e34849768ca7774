import Crypto
import Foundation
import SQLKit
import Synchronization

/// The server's VAPID key pair, kept in the database (`push_server_keys`) so every server sharing
/// it signs with the same key: a subscription is bound to the key it was made with. Made the first
/// time it is needed, race-safe: each server inserts its own candidate unless a row exists, then
/// reads what is stored, so two servers starting together both end up with whichever landed
/// first. Read once, then kept in memory (it never changes).
final class VAPIDKeyStore: Sendable {
    private let database: KithDatabase
    private let clock: Clock
    private let cached = Mutex<VAPIDKeyPair?>(nil)

    init(database: KithDatabase, clock: Clock) {
        self.database = database
        self.clock = clock
    }

    func keyPair() async throws -> VAPIDKeyPair {
        if let known = cached.withLock({ $0 }) { return known }
        let candidate = P256.Signing.PrivateKey()
        let (privateText, publicText) = (
            WebPushBase64.encode(candidate.rawRepresentation),
            WebPushBase64.encode(candidate.publicKey.x963Representation)
        )
        let now = clock.nowMillis
        let stored = try await database.transaction { sql in
            try await sql.raw(
                """
                INSERT INTO push_server_keys (id, private_key, public_key, created_at)
                VALUES (1, \(bind: privateText), \(bind: publicText), \(bind: now))
                ON CONFLICT (id) DO NOTHING
                """
            ).run()
            return try await sql.raw("SELECT private_key FROM push_server_keys WHERE id = 1")
                .first(decodingColumn: "private_key", as: String.self)
        }
        guard let stored, let raw = WebPushBase64.decode(stored), let pair = VAPIDKeyPair(privateKey: raw) else {
            throw VAPIDKeyError.unreadable
        }
        cached.withLock { $0 = pair }
        return pair
    }
}

enum VAPIDKeyError: Error, CustomStringConvertible {
    case unreadable

    var description: String { "the stored VAPID key (push_server_keys) is not a P-256 private key" }
}
