import Foundation
import Testing

@testable import KithKit

@Suite("Wake signal")
struct WakeSignalTests {
    @Test func aFireWhileNobodyWaitsIsKeptForTheNextWait() async {
        let signal = WakeSignal()
        await signal.fire()
        let started = ContinuousClock.now
        await signal.wait(timeout: .seconds(600))
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    /// With nothing fired, a wait ends by its timeout (the sync loop's retry after a failure): not
    /// before it, and it leaves no waiter behind, so the next fire is kept for the next wait.
    @Test(.timeLimit(.minutes(1))) func aWaitWithoutAFireEndsAtItsTimeoutAndTheNextFireIsKept() async {
        let signal = WakeSignal()
        let started = ContinuousClock.now
        await signal.wait(timeout: .milliseconds(50))
        #expect(ContinuousClock.now - started >= .milliseconds(50), "not before its timeout")
        #expect(await !signal.hasPendingFire, "a timeout is no fire")
        await signal.fire()
        #expect(await signal.hasPendingFire, "the fire after the timeout is kept, not taken by the ended wait")
    }

    /// Fires racing with waits from another task: every wait ends by a fire, none waits for its
    /// (ten-minute) timeout, so a wake-up is never lost whatever the interleaving.
    @Test func firesRacingWithWaitsAreNeverLost() async {
        let signal = WakeSignal()
        let rounds = 2_000
        let waited = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<rounds { await signal.wait(timeout: .seconds(600)) }
            }
            group.addTask {
                // One fire per wait: a fire kept for later is taken before the next one is sent,
                // so no two fires merge into one.
                for round in 0..<rounds {
                    await signal.fire()
                    if round % 3 == 0 { await Task.yield() }
                    while await signal.hasPendingFire { await Task.yield() }
                }
            }
        }
        #expect(ContinuousClock.now - waited < .seconds(120))
    }
}
