import Foundation
import Hummingbird
import KithCore
import Synchronization

/// Monica's `throttle:api`: a number of requests per minute per key (the user), counted in a
/// window that starts with the first request, as Laravel's limiter does. Kept in this process's
/// memory: servers sharing one PostgreSQL each count their own share.
final class MonicaRateLimiter: Sendable {
    struct Verdict {
        let allowed: Bool
        let limit: Int
        let remaining: Int
        /// Seconds until the window ends, for `Retry-After`.
        let retryAfter: Int
        let resetAt: Int64
    }

    private struct Window {
        var startedAt: Int64
        var hits: Int
    }

    let limit: Int
    private let clock: Clock
    private let windows = Mutex<[String: Window]>([:])
    private static let windowMillis: Int64 = 60_000

    init(limit: Int, clock: Clock) {
        self.limit = limit
        self.clock = clock
    }

    func hit(_ key: String) -> Verdict {
        let now = clock.nowMillis
        return windows.withLock { windows in
            if windows.count > 10_000 { windows = windows.filter { now - $0.value.startedAt < Self.windowMillis } }
            var window =
                windows[key].flatMap { now - $0.startedAt < Self.windowMillis ? $0 : nil }
                ?? Window(startedAt: now, hits: 0)
            let allowed = window.hits < limit
            if allowed { window.hits += 1 }
            windows[key] = window
            let endsAt = window.startedAt + Self.windowMillis
            return Verdict(
                allowed: allowed, limit: limit, remaining: max(0, limit - window.hits),
                retryAfter: Int((endsAt - now + 999) / 1000), resetAt: endsAt / 1000)
        }
    }
}
