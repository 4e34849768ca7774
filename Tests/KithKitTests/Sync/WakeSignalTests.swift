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

    @Test func aWaitEndsAtItsTimeout() async {
        let signal = WakeSignal()
        await signal.wait(timeout: .milliseconds(10))
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
