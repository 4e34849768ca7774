import Foundation
import Logging

/// Deletes the sessions none of whose tokens can be used any more: an app's once its refresh token
/// has expired (60 days after its last refresh), a browser's once its cookie has (30 days). Nothing
/// else would: a phone that is lost or wiped never signs out, and every refresh leaves its used
/// token behind for reuse detection, so those tables only grew. A session's used tokens and its
/// tokens from before decision 107 go with it (`ON DELETE CASCADE`).
///
/// Once a UTC day (`DailyJob`). Running twice is harmless: the second run finds nothing expired
/// that the first did not delete.
struct ExpiredSessionsJob: DailyJob {
    static let kind = "accounts.expired-sessions"

    let accounts: AccountRepository
    let queue: JobQueue
    let clock: Clock
    let logger: Logger

    func runDay(now: Date) async throws {
        let deleted = try await accounts.deleteExpiredSessions(now: now.epochMillis)
        logger.info("expired sessions: \(deleted) deleted")
    }
}
