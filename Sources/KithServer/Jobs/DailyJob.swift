import Foundation
import KithCore

/// A job that runs once a UTC day, keyed by its date (`<kind> 2026-11-28`): every server enqueues
/// today's at start, and each run enqueues tomorrow's (due at its start) before its work, so the
/// daily chain goes on even when one run fails for good. The key makes it one job a day however
/// many servers share the database. A conforming handler names its kind and does the day's work.
protocol DailyJob: JobHandler {
    static var kind: String { get }
    var queue: JobQueue { get }
    var clock: Clock { get }
    /// The day's work; tomorrow's run is already enqueued. Must be safe to run twice.
    func runDay(now: Date) async throws
}

extension DailyJob {
    var kind: String { Self.kind }
    /// 1 minute doubling to 1 hour, 8 attempts.
    var retry: JobRetryPolicy { JobRetryPolicy(maxAttempts: 8, firstDelay: .seconds(60), maximumDelay: .seconds(3600)) }

    /// The run for `day` (a UTC date), due at `runAt`.
    func job(for day: LocalDate, runAt: Int64) -> NewJob {
        NewJob(kind: Self.kind, key: "\(Self.kind) \(day)", runAt: runAt, retry: retry)
    }

    /// Today's run, due now.
    func jobAtStart(now: Date) throws -> NewJob? {
        job(for: LocalDate(now, in: Self.utc), runAt: now.epochMillis)
    }

    func run(_ job: Job) async throws {
        let now = clock.now()
        let tomorrow = LocalDate(now, in: Self.utc).adding(days: 1)
        try await queue.enqueue(self.job(for: tomorrow, runAt: Self.startOfUTCDay(tomorrow)))
        try await runDay(now: now)
    }

    static func startOfUTCDay(_ day: LocalDate) -> Int64 { Int64(day.dayNumber) * 86_400_000 }

    static var utc: TimeZone { TimeZone(secondsFromGMT: 0) ?? .gmt }
}
