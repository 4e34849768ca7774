import Foundation
import KithCore
import Synchronization

/// The hybrid logical clock of the web pages, which write like one more device of each user: one
/// node per server process. A change made on a page is stamped after every stamp of the records
/// the page acted on, so what a person does to what they see wins over what they saw.
final class WebClock: Sendable {
    private let wall: Clock
    private let clock: Mutex<HybridLogicalClock>

    init(wall: Clock, ids: IdentifierSource) {
        self.wall = wall
        // One node per process: servers sharing a database must not stamp as one another.
        let node = "web-" + ids.text().prefix(8)
        clock = Mutex(HybridLogicalClock(node: node))
    }

    /// A timestamp later than any stamp in `seen` and than every one this clock gave before.
    func stamp(after seen: [SyncRecord] = []) -> HLC {
        let now = wall.nowMillis
        let latest = seen.compactMap(\.latestStamp).max()
        return clock.withLock { clock in
            if let latest { clock.receive(latest, now: now) }
            return clock.tick(now: now)
        }
    }
}
