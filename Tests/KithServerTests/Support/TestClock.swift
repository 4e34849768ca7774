import Foundation
import KithServer
import Synchronization

/// A clock tests move by hand: token expiry and rate-limit windows without waiting.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) { current = Mutex(start) }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }

    var clock: Clock { Clock { [self] in now } }
}
