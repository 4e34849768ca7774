import Foundation

/// The server's source of "now", injectable so tests can move time (token expiry, rate limits).
public struct Clock: Sendable {
    public var now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    public static let system = Clock { Date() }

    /// Times are stored as integer milliseconds so both engines compare them the same way.
    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
    static func date(millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }

    var nowMillis: Int64 { Self.millis(now()) }
}
