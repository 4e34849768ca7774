import Foundation

extension Date {
    /// Milliseconds since 1970, rounded to the nearest: the one conversion every side uses
    /// (storage, HLC wall times, the wire's timestamps). Dates beyond ±2^53 ms (no real date) clamp.
    public var epochMillis: Int64 {
        let millis = (timeIntervalSince1970 * 1000).rounded()
        guard millis.isFinite else { return millis > 0 ? Self.largestMillis : -Self.largestMillis }
        return Int64(min(max(millis, -Double(Self.largestMillis)), Double(Self.largestMillis)))
    }

    public init(epochMillis: Int64) {
        self.init(timeIntervalSince1970: Double(epochMillis) / 1000)
    }

    private static let largestMillis: Int64 = 1 << 53
}
