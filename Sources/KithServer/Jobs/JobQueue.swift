import Foundation
import Synchronization

/// How server code asks for work to be done later: the job is stored (so it survives a restart and
/// runs on whichever server claims it) and this server's runner is woken, so a job due now starts
/// without waiting for the next poll.
struct JobQueue: Sendable {
    let repository: JobRepository
    let clock: Clock
    let wake: JobWakeSignal

    /// Stores `job` unless its key exists; whether it was added.
    @discardableResult
    func enqueue(_ job: NewJob) async throws -> Bool {
        let now = clock.nowMillis
        let added = try await repository.enqueue(job, now: now)
        if added, job.runAt <= now { wake.signal() }
        return added
    }
}

/// Wakes the runner's wait between polls. A signal given while the runner is busy is kept (one is
/// enough), so a job enqueued during a run is not left for the next poll.
final class JobWakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    init() {}

    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when signalled (at once if a signal came since the last wait), after `timeout`, or
    /// when the calling task is cancelled.
    func wait(timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.nextSignal() }
            await group.next()
            group.cancelAll()
        }
    }

    private func nextSignal() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    // Cancelled before the waiter could be stored: the cancel handler found none to resume.
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
