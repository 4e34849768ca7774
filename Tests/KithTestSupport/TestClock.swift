import Foundation
import KithServer
import Synchronization

/// A clock tests move by hand, so token expiry and rate-limit windows happen without waiting.
/// Hand `clock` to `ServerConfig.clock`; the server then reads the time only from here.
public final class TestClock: Sendable {
    private let current: Mutex<Date>

    /// Starts at `start`. The default is a fixed instant so router tests are repeatable; pass `Date()`
    /// when real clients, which judge expiry by the wall clock, talk to the server.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) { current = Mutex(start) }

    public var now: Date { current.withLock { $0 } }

    public func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }

    /// Moves the clock to `date`, back or forward.
    public func set(to date: Date) { current.withLock { $0 = date } }

    /// The server's clock type, reading this test clock.
    public var clock: KithServer.Clock { KithServer.Clock { [self] in now } }
}
