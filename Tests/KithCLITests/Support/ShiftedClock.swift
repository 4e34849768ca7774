import Foundation
import KithServer
import Synchronization

/// The server's clock in CLI tests that move time: the wall clock, which the `kith` devices read,
/// plus an offset the test sets. Behind the devices, the server still takes a due time a few
/// seconds away as future when the push arrives late; ahead of them, notices come due.
final class ShiftedClock: Sendable {
    private let offset: Mutex<TimeInterval>

    init(by seconds: TimeInterval) { offset = Mutex(seconds) }

    func shift(to seconds: TimeInterval) { offset.withLock { $0 = seconds } }

    var clock: KithServer.Clock { KithServer.Clock { [self] in Date().addingTimeInterval(offset.withLock { $0 }) } }
}
