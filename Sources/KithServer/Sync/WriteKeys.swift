import Crypto
import Foundation
import KithCore
import SQLKit

/// A writer's key for one change (docs/sync.md, "Write keys"): a page's hidden field, a script's
/// `Idempotency-Key` header. Keys are per account; the same key again gets the first answer and
/// writes nothing. `request` names what the key was used for, so a key reused for another change
/// is refused rather than answered with the wrong thing.
struct WriteKey: Sendable, Hashable {
    let userID: String
    let key: String
    let request: String

    /// At most this long; printable ASCII (a UUID, a random token): anything else is refused.
    static let maximumLength = 128

    /// The key a writer sent, checked: nil when it sent none; 400 when it is not a usable key.
    init?(_ text: String?, userID: String, request: String) throws {
        guard let text, !text.isEmpty else { return nil }
        guard text.count <= Self.maximumLength, text.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
        else {
            throw AppError(
                .badRequest, .badRequest,
                "A write key is 1 to \(Self.maximumLength) printable ASCII characters (a UUID will do).", field: "key")
        }
        self.userID = userID
        self.key = text
        self.request = request
    }

    /// What a key's row records of the request: its kind and a digest of what it asked (the same
    /// key is only the same change if both match).
    static func request(_ kind: String, _ asked: String) -> String {
        kind + " " + SHA256.hash(data: Data(asked.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// How long a key is kept: as long as an offline device or page might replay what it queued.
    static let keptForDays = 90
}

/// What a key's row says.
enum WriteKeyState: Sendable, Equatable {
    /// The change was made: its answer, as the first writer got it.
    case answered(String)
    /// Another request holding the key is still making the change.
    case inFlight
}

/// The `write_keys` table, inside whatever transaction the caller holds.
enum WriteKeys {
    /// The key's state; nil when it was never used. 422 when it was used for another request.
    static func state(of key: WriteKey, in sql: any SQLDatabase) async throws -> WriteKeyState? {
        guard
            let row = try await sql.raw(
                "SELECT request, answer FROM write_keys WHERE user_id = \(bind: key.userID) AND key = \(bind: key.key)"
            ).first(decoding: Row.self)
        else { return nil }
        guard row.request == key.request else {
            throw AppError(
                .unprocessableContent, .validationFailed,
                "This write key was already used for another change; send a new key for a new change.", field: "key")
        }
        return row.answer.map(WriteKeyState.answered) ?? .inFlight
    }

    /// Records the key with the change's answer (in the transaction that made the change).
    static func record(_ key: WriteKey, answer: String?, now: Int64, in sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            INSERT INTO write_keys (user_id, key, request, answer, created_at)
            VALUES (\(bind: key.userID), \(bind: key.key), \(bind: key.request), \(bind: answer), \(bind: now))
            """
        ).run()
    }

    /// Fills in the answer of a key recorded while in flight.
    static func answer(_ key: WriteKey, with answer: String, in sql: any SQLDatabase) async throws {
        try await sql.raw(
            "UPDATE write_keys SET answer = \(bind: answer) WHERE user_id = \(bind: key.userID) AND key = \(bind: key.key)"
        ).run()
    }

    /// Lets go of a key whose change failed, so the writer can try again with it.
    static func release(_ key: WriteKey, in sql: any SQLDatabase) async throws {
        try await sql.raw(
            "DELETE FROM write_keys WHERE user_id = \(bind: key.userID) AND key = \(bind: key.key) AND answer IS NULL"
        ).run()
    }

    /// Forgets keys recorded before `cutoff` (epoch milliseconds): how many.
    static func purge(before cutoff: Int64, in sql: any SQLDatabase) async throws -> Int {
        try await sql.raw("DELETE FROM write_keys WHERE created_at < \(bind: cutoff) RETURNING key")
            .all().count
    }

    private struct Row: Decodable {
        var request: String
        var answer: String?
    }
}
