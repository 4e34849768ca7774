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
struct ExpiredSessionsJob: JobHandler {
    static let kind = "accounts.expired-sessions"

    let accounts: AccountRepository
    let queue: JobQueue
    let clock: Clock
    let logger: Logger

    var kind: String { Self.kind }
    var retry: JobRetryPolicy { JobRetryPolicy(maxAttempts: 8, firstDelay: .seconds(60), maximumDelay: .seconds(3600)) }
    private var daily: DailyJob { DailyJob(kind: Self.kind, retry: retry) }

    func jobAtStart(now: Date) throws -> NewJob? { daily.today(now: now) }

    func run(_ job: Job) async throws {
        let now = clock.now()
        try await queue.enqueue(daily.tomorrow(after: now))
        let deleted = try await accounts.deleteExpiredSessions(now: now.epochMillis)
        logger.info("expired sessions: \(deleted) deleted")
    }
}
