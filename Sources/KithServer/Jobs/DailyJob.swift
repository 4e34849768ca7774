import Foundation
import KithCore

/// A job that runs once a UTC day, keyed by its date (`<kind> 2026-11-28`): every server enqueues
/// today's at start, and each run enqueues tomorrow's (due at its start) before its work, so the
/// daily chain goes on even when one run fails for good. The key makes it one job a day however
/// many servers share the database.
struct DailyJob: Sendable {
    let kind: String
    let retry: JobRetryPolicy

    /// The run for `day` (a UTC date), due at `runAt`.
    func job(for day: LocalDate, runAt: Int64) -> NewJob {
        NewJob(kind: kind, key: "\(kind) \(day)", runAt: runAt, retry: retry)
    }

    /// Today's run, due now: what a server enqueues at start.
    func today(now: Date) -> NewJob {
        job(for: LocalDate(now, in: Self.utc), runAt: now.epochMillis)
    }

    /// Tomorrow's run, due when tomorrow starts.
    func tomorrow(after now: Date) -> NewJob {
        let day = LocalDate(now, in: Self.utc).adding(days: 1)
        return job(for: day, runAt: Self.startOfUTCDay(day))
    }

    static func startOfUTCDay(_ day: LocalDate) -> Int64 { Int64(day.dayNumber) * 86_400_000 }

    static let utc = TimeZone(secondsFromGMT: 0) ?? .gmt
}
