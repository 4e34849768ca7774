import Foundation
import Logging

/// Forgets write keys once no writer could still be replaying the change they made
/// (`WriteKey.keptForDays`: longer than a device or a page is expected to stay offline).
///
/// Once a UTC day (`DailyJob`). Running twice is harmless: the second run finds nothing that old.
struct ExpiredWriteKeysJob: DailyJob {
    static let kind = "sync.expired-write-keys"

    let database: KithDatabase
    let queue: JobQueue
    let clock: Clock
    let logger: Logger

    func runDay(now: Date) async throws {
        let cutoff = now.epochMillis - Int64(WriteKey.keptForDays) * 86_400_000
        let forgotten = try await database.run { sql in try await WriteKeys.purge(before: cutoff, in: sql) }
        logger.info("expired write keys: \(forgotten) forgotten")
    }
}
