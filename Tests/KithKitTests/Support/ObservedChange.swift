import Foundation
import Observation
import Synchronization

/// A change of an `@Observable` store's state, seen as SwiftUI sees it: `withObservationTracking`
/// over what `read` reads, armed before an action and checked after it.
@MainActor
final class ObservedChange {
    private let fired = Flag()
    private let changes: AsyncStream<Void>

    init(_ read: @MainActor () -> Void) {
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self)
        self.changes = changes
        let fired = self.fired
        withObservationTracking(read) {
            fired.set()
            continuation.yield()
            continuation.finish()
        }
    }

    /// Whether what `read` read has changed already (a store's own write changes it before returning).
    var hasHappened: Bool { fired.isSet }

    /// Whether what `read` read has changed, waiting up to `timeout` for it (a pull lands later).
    func happened(within timeout: Duration = .seconds(5)) async -> Bool {
        if hasHappened { return true }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { [changes] in
                for await _ in changes { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}

private final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
