import Foundation
import GRDB
import Synchronization

/// Keeps an `@Observable` store's state current with its database: the store re-reads its state
/// (`refresh()`) after each of its own writes, and this re-reads it after every other commit that
/// touches the store's tables (changes the sync engine pulled, pushes acknowledged, another
/// instance's writes). Commits are counted on the database's writer queue; the main actor then
/// catches up once for all the commits no refresh has read yet, so a burst of pulled pages costs
/// one re-read, and a store's own write is not read twice.
@MainActor
final class StateRefresher {
    private let commits = CommitCount()
    private var readThrough = 0
    private var read: () -> Void = {}
    private var observation: AnyDatabaseCancellable?

    /// Reads the store's state now with `read`, and again after every commit to `region`.
    func follow(
        _ writer: any DatabaseWriter, region: [any DatabaseRegionConvertible], read: @escaping @MainActor () -> Void
    ) {
        self.read = read
        let commits = self.commits
        // Starting fails only for a table that does not exist; the stores create theirs first.
        observation = DatabaseRegionObservation(tracking: region).start(in: writer, onError: { _ in }) {
            [weak self] _ in
            let commit = commits.increment()
            Task { @MainActor in self?.catchUp(to: commit) }
        }
        refresh()
    }

    /// Re-reads the state now: it then includes every commit made so far.
    func refresh() {
        readThrough = commits.value
        read()
    }

    private func catchUp(to commit: Int) {
        guard readThrough < commit else { return }
        refresh()
    }
}

/// How many commits touched a store's tables (written on the database's queue, read on the main actor).
private final class CommitCount: Sendable {
    private let count = Mutex(0)

    var value: Int { count.withLock { $0 } }

    func increment() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }
}
