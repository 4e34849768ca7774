import Logging
import PostgresKit
import ServiceLifecycle

/// Brings changes committed by any server on the database (this one included) to this server's
/// live sockets: `LISTEN kith_changes` on a connection of its own, outside the pool. When that
/// connection drops it reconnects with backoff, and after each LISTEN it nudges the sockets' scopes
/// that changed since the previous LISTEN began, so no change is lost in the gap. It logs and
/// retries, and never ends the server.
struct PostgresChangeListener: Service {
    let configuration: PostgresConnection.Configuration
    let hub: LiveHub
    let repository: SyncRepository
    let firstRetryDelay: Duration
    let logger: Logger

    static let maxRetryDelay = Duration.seconds(30)

    func run() async {
        await cancelWhenGracefulShutdown { await listenUntilCancelled() }
    }

    private func listenUntilCancelled() async {
        var covered: [String: Int64] = [:]
        var retryDelay = firstRetryDelay
        var failures = 0
        while !Task.isCancelled {
            do {
                try await listenOnce(covered: &covered) {
                    if failures > 0 { logger.notice("Live nudges from other servers resumed (LISTEN reconnected)") }
                    failures = 0
                    retryDelay = firstRetryDelay
                }
            } catch {
                if Task.isCancelled { break }
                failures += 1
                logger.warning(
                    "Live nudges from other servers paused: the LISTEN connection failed; retrying in \(retryDelay)",
                    metadata: ["error": "\(String(reflecting: error))", "attempt": "\(failures)"])
            }
            guard (try? await Task.sleep(for: retryDelay)) != nil else { break }
            retryDelay = min(retryDelay * 2, Self.maxRetryDelay)
        }
    }

    /// One connection's life: LISTEN, catch up on the gap, then forward notifications until the
    /// connection fails (throws) or the task is cancelled (returns).
    private func listenOnce(covered: inout [String: Int64], onListening: () -> Void) async throws {
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            try await connection.listen(on: PostgresChangeChannel.name) { notifications in
                onListening()
                // Every change from now on will be notified on this connection. Changes before it
                // were notified on the previous one, unless they came while it was down: nudge each
                // scope that moved past where it stood when the previous LISTEN began (a scope
                // followed since then is nudged at where it stands; the hub drops what it already sent).
                let subscribed = hub.subscribedScopes
                let ordered = subscribed.filter { !MembershipScope.isMembership($0) }
                let now = try await repository.currentSequenceValues(of: ordered)
                for (scope, seq) in now where seq > (covered[scope] ?? 0) {
                    hub.deliver(ScopeChange(scope: scope, seq: seq))
                }
                // A membership nudge leaves no record to find: every socket here reads its scopes again.
                for scope in subscribed where MembershipScope.isMembership(scope) {
                    hub.deliver(.nudge(scope))
                }
                covered = now
                for try await notification in notifications {
                    guard let change = PostgresChangeChannel.change(fromPayload: notification.payload) else {
                        logger.warning(
                            "Ignored a \(PostgresChangeChannel.name) notification that is not \"<scope> <seq>\": \(notification.payload)"
                        )
                        continue
                    }
                    hub.deliver(change)
                }
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
        // The notifications end without an error only when cancelled or when the server closed the
        // connection cleanly; the latter must be retried like a failure.
        if !Task.isCancelled { throw ListenerError.connectionClosed }
    }

    enum ListenerError: Error, CustomStringConvertible {
        case connectionClosed
        var description: String { "the database closed the LISTEN connection" }
    }
}
