import Foundation

/// Exponential backoff with jitter: after the n-th failure in a row, wait a random time between
/// half and all of `base * 2^(n-1)`, never more than `cap`. The jitter keeps many devices that lost
/// the server together from all coming back at the same instant.
public struct Backoff: Sendable, Equatable {
    public var base: Duration
    public var cap: Duration

    public init(base: Duration = .seconds(1), cap: Duration = .seconds(60)) {
        self.base = base
        self.cap = cap
    }

    public func delay(afterFailures failures: Int, random: Double = Double.random(in: 0...1)) -> Duration {
        guard failures > 0 else { return .zero }
        let exponent = min(failures - 1, 30)
        let full = min(Self.seconds(base) * pow(2, Double(exponent)), Self.seconds(cap))
        return .milliseconds(Int64((full * (0.5 + 0.5 * random) * 1000).rounded()))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
