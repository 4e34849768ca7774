import Foundation

/// The server's source of "now", injectable so tests can move time (token expiry, rate limits).
public struct Clock: Sendable {
    public var now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    public static let system = Clock { Date() }

    /// Times are stored as integer milliseconds (`Date.epochMillis`) so both engines compare them
    /// the same way.
    public var nowMillis: Int64 { now().epochMillis }
}
