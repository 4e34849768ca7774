import Foundation
import SQLKit

/// The write keys of `/api` (`MonicaIdempotencyMiddleware`) in the table every writer shares
/// (`WriteKeys`, per account): each step one transaction of its own, since the change the key
/// guards runs between them, in its repository's transaction.
struct MonicaWriteKeyRepository: Sendable {
    let database: KithDatabase

    /// Who holds a key a request brings.
    enum Claim: Sendable, Equatable {
        /// Nobody had it: this request now holds it, in flight.
        case claimed
        /// A request made the change already: its answer.
        case answered(String)
        /// A request holding it is still making the change.
        case inFlight
    }

    /// Takes `key` for a request about to make its change, or says who has it. 422 when it was
    /// used for another request.
    func claim(_ key: WriteKey, now: Int64) async throws -> Claim {
        try await database.transaction { [engine = database.engine] sql in
            if engine == .postgres {
                // Two requests bringing one new key: the second waits here, then reads the first's row
                // (SQLite's write transactions take turns anyway).
                try await sql.raw(
                    "SELECT pg_advisory_xact_lock(\(bind: Self.lockSpace), hashtext(\(bind: key.userID + " " + key.key)))"
                ).run()
            }
            switch try await WriteKeys.state(of: key, in: sql) {
            case .answered(let answer): return .answered(answer)
            case .inFlight: return .inFlight
            case nil:
                try await WriteKeys.record(key, answer: nil, now: now, in: sql)
                return .claimed
            }
        }
    }

    /// Keeps the answer of the change `key` made, for the same key again.
    func answer(_ key: WriteKey, with answer: String) async throws {
        try await database.transaction { sql in try await WriteKeys.answer(key, with: answer, in: sql) }
    }

    /// Lets go of a key whose change failed, so the same request can be tried again with it.
    func release(_ key: WriteKey) async throws {
        try await database.transaction { sql in try await WriteKeys.release(key, in: sql) }
    }

    /// The first half of the advisory lock's key: write keys' own space, apart from the sync
    /// scopes' one-number locks.
    private static let lockSpace: Int32 = 0x6B77_6B31
}
