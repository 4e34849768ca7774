import Synchronization

/// The live sockets of this process by the scopes they read, and the fan-out of nudges to them.
/// Delivering never waits for a socket: a receiver only queues the nudge on its socket's own stream.
final class LiveHub: Sendable {
    /// One registered socket; hand it back to `unsubscribe` when the socket ends.
    struct Subscription: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    typealias Receiver = @Sendable (ScopeChange) -> Void

    private struct State {
        var nextID: UInt64 = 0
        var receivers: [String: [UInt64: Receiver]] = [:]
        var scopesByID: [UInt64: [String]] = [:]
        /// Per scope with sockets, the highest sequence value already delivered. A nudge at or below
        /// it tells those sockets nothing new (they pull everything up to it), so it is dropped: this
        /// is what keeps a change that arrives twice (pushed here, then echoed by LISTEN) from nudging twice.
        var delivered: [String: Int64] = [:]
    }

    private let state = Mutex(State())

    /// Registers a socket for `scopes`; `receive` is called for every later change in one of them.
    func subscribe(scopes: [String], receive: @escaping Receiver) -> Subscription {
        state.withLock { state in
            state.nextID += 1
            let id = state.nextID
            let unique = Array(Set(scopes))
            state.scopesByID[id] = unique
            for scope in unique { state.receivers[scope, default: [:]][id] = receive }
            return Subscription(id: id)
        }
    }

    func unsubscribe(_ subscription: Subscription) {
        state.withLock { state in
            guard let scopes = state.scopesByID.removeValue(forKey: subscription.id) else { return }
            for scope in scopes {
                state.receivers[scope]?[subscription.id] = nil
                if state.receivers[scope]?.isEmpty == true {
                    state.receivers[scope] = nil
                    state.delivered[scope] = nil
                }
            }
        }
    }

    /// Nudges every socket reading `change.scope`, unless they already heard of a change as recent
    /// (a nudge outside the scope's order always passes). Receivers run under the lock (they only
    /// queue), so each socket hears a scope's nudges in seq order.
    func deliver(_ change: ScopeChange) {
        state.withLock { state in
            guard let receivers = state.receivers[change.scope], !receivers.isEmpty else { return }
            if change.isOrdered {
                if let delivered = state.delivered[change.scope], delivered >= change.seq { return }
                state.delivered[change.scope] = change.seq
            }
            for receive in receivers.values { receive(change) }
        }
    }

    /// The scopes at least one socket here reads.
    var subscribedScopes: [String] { state.withLock { Array($0.receivers.keys) } }

    var socketCount: Int { state.withLock { $0.scopesByID.count } }
}
