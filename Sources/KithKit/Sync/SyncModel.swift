import Foundation
import Observation
import Synchronization

/// The sync engine's state for SwiftUI: a status line, the changes the server refused, and a
/// "Retry now" action. Follows the engine until released.
@Observable
@MainActor
public final class SyncModel {
    public private(set) var status: SyncStatus = .idle
    /// Refused changes not yet dismissed, newest first.
    public private(set) var rejections: [SyncRejection] = []
    @ObservationIgnored private let engine: SyncEngine
    @ObservationIgnored private let following = TaskBag()

    public init(engine: SyncEngine) {
        self.engine = engine
        rejections = (try? engine.store.rejections()) ?? []
        following.add(Task { [weak self] in
            for await status in await engine.statusUpdates() { self?.status = status }
        })
        following.add(Task { [weak self] in
            for await event in await engine.events() {
                if case .rejected(let rejection) = event { self?.rejections.insert(rejection, at: 0) }
            }
        })
    }

    deinit {
        following.cancelAll()
    }

    public func retryNow() {
        Task { await engine.retryNow() }
    }

    /// The person has seen the refused changes.
    public func dismissRejections() {
        try? engine.store.clearRejections()
        rejections = []
    }
}

/// Tasks that end with their owner.
final class TaskBag: Sendable {
    private let tasks = Mutex<[Task<Void, Never>]>([])

    func add(_ task: Task<Void, Never>) { tasks.withLock { $0.append(task) } }

    func cancelAll() { tasks.withLock { $0.forEach { $0.cancel() } } }
}
