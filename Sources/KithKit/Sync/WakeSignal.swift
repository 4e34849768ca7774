import Foundation

/// Wakes the sync loop: a local write, a live nudge, a reconnect or "retry now". Fires while
/// nobody waits are remembered (once), so a wake-up is never lost between two waits.
actor WakeSignal {
    private var pending = false
    private var waiter: CheckedContinuation<Void, Never>?
    private var generation = 0

    /// Whether a fire is kept for the next wait (for tests).
    var hasPendingFire: Bool { pending }

    func fire() {
        if let waiter {
            self.waiter = nil
            waiter.resume()
        } else {
            pending = true
        }
    }

    /// Returns on the next fire, after `timeout`, or when the task is cancelled.
    func wait(timeout: Duration) async {
        if pending {
            pending = false
            return
        }
        generation += 1
        let mine = generation
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.expire(mine)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A fire may have slipped in since the check above: take it now instead of waiting.
                if pending {
                    pending = false
                    continuation.resume()
                } else {
                    waiter = continuation
                }
            }
        } onCancel: {
            Task { await self.fire() }
        }
        timer.cancel()
    }

    private func expire(_ generation: Int) {
        guard generation == self.generation, let waiter else { return }
        self.waiter = nil
        waiter.resume()
    }
}
