import KithTestSupport
import Testing

@testable import KithServer

/// The fan-out and its de-duplication, and the NOTIFY payload, without sockets.
@Suite("Live hub")
struct LiveHubTests {
    @Test func nudgesReachOnlyTheScopesSubscribersAndNothingOlderIsRepeated() {
        let hub = LiveHub()
        let heard = Locked<[String: [ScopeChange]]>([:])
        func listener(_ name: String) -> LiveHub.Receiver {
            { change in heard.withLock { $0[name, default: []].append(change) } }
        }
        let phone = hub.subscribe(scopes: ["user:ada"], receive: listener("phone"))
        _ = hub.subscribe(scopes: ["user:ada", "family:one"], receive: listener("laptop"))
        _ = hub.subscribe(scopes: ["user:bob"], receive: listener("bob"))

        hub.deliver(ScopeChange(scope: "user:ada", seq: 5))
        hub.deliver(ScopeChange(scope: "user:ada", seq: 5))  // the LISTEN echo of a local push
        hub.deliver(ScopeChange(scope: "user:ada", seq: 4))  // older news, covered by 5
        hub.deliver(ScopeChange(scope: "family:one", seq: 6))
        hub.deliver(ScopeChange(scope: "user:nobody", seq: 7))
        hub.unsubscribe(phone)
        hub.deliver(ScopeChange(scope: "user:ada", seq: 8))

        #expect(heard.value["phone"] == [ScopeChange(scope: "user:ada", seq: 5)])
        #expect(
            heard.value["laptop"] == [
                ScopeChange(scope: "user:ada", seq: 5), ScopeChange(scope: "family:one", seq: 6),
                ScopeChange(scope: "user:ada", seq: 8),
            ])
        #expect(heard.value["bob"] == nil)
        #expect(hub.socketCount == 2)
        #expect(Set(hub.subscribedScopes) == ["user:ada", "family:one", "user:bob"])
    }

    @Test func aScopeWithoutSocketsIsForgotten() {
        let hub = LiveHub()
        let heard = Locked<[Int64]>([])
        let first = hub.subscribe(scopes: ["user:ada"]) { _ in }
        hub.deliver(ScopeChange(scope: "user:ada", seq: 9))
        hub.unsubscribe(first)
        #expect(hub.subscribedScopes.isEmpty)
        // A socket that comes later hears of an older seq again: it may have missed it.
        _ = hub.subscribe(scopes: ["user:ada"]) { change in heard.withLock { $0.append(change.seq) } }
        hub.deliver(ScopeChange(scope: "user:ada", seq: 3))
        #expect(heard.value == [3])
    }

    @Test func aPushBatchNudgesTheLatestChangePerScope() {
        let batch = [
            ScopeChange(scope: "user:ada", seq: 3), ScopeChange(scope: "family:one", seq: 4),
            ScopeChange(scope: "user:ada", seq: 5),
        ]
        #expect(
            ScopeChange.latestPerScope(batch) == [
                ScopeChange(scope: "family:one", seq: 4), ScopeChange(scope: "user:ada", seq: 5),
            ])
    }

    @Test func notificationPayloadsRoundTripAndStrangersAreRefused() {
        let change = ScopeChange(scope: "user:6f1c0f4e-0000-4000-8000-000000000000", seq: 42)
        #expect(PostgresChangeChannel.payload(for: change) == "user:6f1c0f4e-0000-4000-8000-000000000000 42")
        #expect(PostgresChangeChannel.change(fromPayload: PostgresChangeChannel.payload(for: change)) == change)
        for stranger in ["", "hello", "user:ada", " 5", "user:ada five", "user:ada -1"] {
            #expect(PostgresChangeChannel.change(fromPayload: stranger) == nil, "\(stranger)")
        }
        let nudge = ScopeChange.nudge("membership:ada")
        #expect(PostgresChangeChannel.change(fromPayload: PostgresChangeChannel.payload(for: nudge)) == nudge)
    }

    /// Sequence values count per scope, and a membership nudge has none: it reaches the sockets
    /// however far the scope's changes went, and leaves their order alone.
    @Test func aNudgeOutsideTheScopesOrderAlwaysPasses() {
        let hub = LiveHub()
        let heard = Locked<[ScopeChange]>([])
        _ = hub.subscribe(scopes: ["user:ada"]) { change in heard.withLock { $0.append(change) } }
        hub.deliver(ScopeChange(scope: "user:ada", seq: 40))
        hub.deliver(.nudge("user:ada"))
        hub.deliver(.nudge("user:ada"))
        hub.deliver(ScopeChange(scope: "user:ada", seq: 40))
        hub.deliver(ScopeChange(scope: "user:ada", seq: 41))
        #expect(
            heard.value == [
                ScopeChange(scope: "user:ada", seq: 40), .nudge("user:ada"), .nudge("user:ada"),
                ScopeChange(scope: "user:ada", seq: 41),
            ])
    }
}
