import Foundation
import KithCore

/// Where a job stands. `done` and `failed` rows stay, so a key once used is not enqueued again
/// (the day's retention run) and an operator can read why a job gave up.
enum JobStatus: String, Sendable, Codable {
    case pending, running, done, failed
}

/// A job as a runner holds it after claiming it: what to do (`kind`, `payload`) and which attempt
/// this is, counting this one.
struct Job: Sendable, Hashable {
    let id: String
    let kind: String
    let key: String
    /// JSON text; `payload(as:)` decodes it.
    let payload: String
    let attempts: Int
    let maxAttempts: Int
    let runAt: Int64

    /// The payload as `type`; a payload that does not decode is a permanent failure (retrying
    /// cannot make it readable).
    func payload<Payload: Decodable>(as type: Payload.Type) throws -> Payload {
        do {
            return try JSONDecoder().decode(Payload.self, from: Data(payload.utf8))
        } catch {
            throw JobFailure.permanent("the payload of \(kind) job \(id) is not readable: \(error)")
        }
    }
}

/// A job to add: `key` names the piece of work, so enqueueing it twice (two servers, a retried
/// request) makes one job.
struct NewJob: Sendable {
    let kind: String
    let key: String
    let payload: String
    let runAt: Int64
    let retry: JobRetryPolicy

    init(kind: String, key: String, payload: String = "{}", runAt: Int64, retry: JobRetryPolicy) {
        self.kind = kind
        self.key = key
        self.payload = payload
        self.runAt = runAt
        self.retry = retry
    }

    /// With a payload encoded from `value`.
    init<Payload: Encodable>(kind: String, key: String, payload value: Payload, runAt: Int64, retry: JobRetryPolicy)
        throws
    {
        let data = try JSONEncoder().encode(value)
        self.init(kind: kind, key: key, payload: String(decoding: data, as: UTF8.self), runAt: runAt, retry: retry)
    }
}

/// How often and how patiently a kind of job is tried: after the n-th failed attempt it waits
/// `firstDelay` × 2ⁿ⁻¹, at most `maximumDelay`; after `maxAttempts` attempts it is `failed`.
struct JobRetryPolicy: Sendable, Hashable {
    /// Bounded so a row's attempt count and the doubling below stay small numbers.
    static let allowedAttempts: ClosedRange<Int> = 1...100

    let maxAttempts: Int
    let firstDelay: Duration
    let maximumDelay: Duration

    init(maxAttempts: Int, firstDelay: Duration, maximumDelay: Duration) {
        self.maxAttempts = min(max(maxAttempts, Self.allowedAttempts.lowerBound), Self.allowedAttempts.upperBound)
        self.firstDelay = firstDelay
        self.maximumDelay = max(maximumDelay, firstDelay)
    }

    /// The wait after the `attempts`-th failed attempt, in milliseconds.
    func delayMillis(afterAttempt attempts: Int) -> Int64 {
        let first = max(firstDelay.inMilliseconds, 0)
        let cap = max(maximumDelay.inMilliseconds, first)
        // 2^30 × any first delay already exceeds every sensible cap; the shift never overflows.
        let doublings = attempts <= 1 ? 0 : min(attempts - 1, 30)
        let (delay, overflow) = first.multipliedReportingOverflow(by: Int64(1) << doublings)
        return overflow ? cap : min(delay, cap)
    }
}

/// What a handler throws to say that trying again cannot help (the job goes to `failed` at once).
/// Any other error is retried by the job's policy.
enum JobFailure: Error, CustomStringConvertible {
    case permanent(String)

    var description: String {
        switch self {
        case .permanent(let reason): reason
        }
    }
}

/// What a handler throws to be tried again no sooner than `notBefore` (epoch ms): a server it
/// called said when to come back (HTTP `Retry-After`). It counts as a failed attempt like any
/// other error, and the job's backoff still applies when that is later.
struct JobRetryLater: Error, CustomStringConvertible {
    let notBefore: Int64
    let reason: String

    var description: String { reason }
}

/// What a handler throws when the job may not run yet and no attempt was spent on it: it waits its
/// turn for something shared (a geocoder that takes one request a second). The job is pending
/// again at `until` with its attempt given back, so however many wait their turn none runs out
/// of attempts.
struct JobPostponed: Error, CustomStringConvertible {
    let until: Int64
    let reason: String

    var description: String { reason }
}

extension Duration {
    /// Whole milliseconds (rounded down), for times stored as epoch milliseconds.
    var inMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (fromSeconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? .min : .max }
        return fromSeconds + attoseconds / 1_000_000_000_000_000
    }
}
