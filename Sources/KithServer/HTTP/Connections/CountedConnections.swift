import HummingbirdCore
import Metrics

/// The server's connection cap (`KITH_MAX_CONNECTIONS`), telling /metrics what it holds:
/// `kith_connections_open` (accepted and not yet closed) and `kith_connections_accepting` (1 while
/// under the cap; 0 once the server stops accepting, when new connections wait in the kernel's
/// queue until one closes). A test, or an operator, reads the server's own account of the cap
/// instead of guessing it from how long a connection went unanswered.
struct CountedConnections: AvailableConnectionsDelegate {
    let maximum: Int
    private var open = 0
    private let openGauge = Gauge(label: "kith_connections_open")
    private let acceptingGauge = Gauge(label: "kith_connections_accepting")

    init(maximum: Int) {
        self.maximum = maximum
        report()
    }

    mutating func connectionOpened() {
        open += 1
        report()
    }

    mutating func connectionClosed() {
        open -= 1
        report()
    }

    func isAcceptingNewConnections() -> Bool { open < maximum }

    private func report() {
        openGauge.record(open)
        acceptingGauge.record(isAcceptingNewConnections() ? 1 : 0)
    }
}
