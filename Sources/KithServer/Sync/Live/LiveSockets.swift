import ServiceLifecycle
import Synchronization

/// Every live socket of this process, from its upgrade to its end, so a graceful shutdown can
/// close them: a socket runs on its connection's event loop, not in a task the HTTP server waits
/// for (`LiveSocket`). As a lifecycle service listed last, it stops first after the HTTP server:
/// each socket is sent a close frame (1001, going away) and the service waits, a few seconds at
/// most, for them to end before storage closes.
final class LiveSockets: Service, Sendable {
    struct Registration: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    typealias Closer = @Sendable () -> Void

    private let state = Mutex<(nextID: UInt64, closers: [UInt64: Closer], shuttingDown: Bool)>((0, [:], false))

    /// How long shutdown waits for the devices to answer their close frames.
    static let shutdownWait = Duration.seconds(6)

    /// Registers a socket; `close` is called (from any thread) when the server shuts down, or at
    /// once when it already is.
    func register(close: @escaping Closer) -> Registration {
        let (registration, closeNow) = state.withLock { state -> (Registration, Bool) in
            state.nextID += 1
            state.closers[state.nextID] = close
            return (Registration(id: state.nextID), state.shuttingDown)
        }
        if closeNow { close() }
        return registration
    }

    func unregister(_ registration: Registration) {
        _ = state.withLock { $0.closers.removeValue(forKey: registration.id) }
    }

    var count: Int { state.withLock { $0.closers.count } }

    func run() async throws {
        try? await gracefulShutdown()
        let closers = state.withLock { state -> [Closer] in
            state.shuttingDown = true
            return Array(state.closers.values)
        }
        for close in closers { close() }
        let deadline = ContinuousClock.now + Self.shutdownWait
        while count > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
