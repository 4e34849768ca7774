import Logging
import SQLKit

/// On PostgreSQL several servers may share the database: nudges go to this server's sockets at
/// once and to every server (this one included) as `NOTIFY kith_changes, '<scope> <seq>'`. A
/// change of records was announced by its own transaction (`SyncTransaction.reserveSequenceValues`
/// notifies as it moves the counter; PostgreSQL delivers at commit), so only a nudge that is no
/// change of records (a membership changed, `ScopeChange.nudge`) is sent from here, after its
/// commit. The echo that comes back here through `PostgresChangeListener` is dropped by the hub as
/// already delivered.
struct PostgresChangeNotifier: ChangeNotifier {
    let database: KithDatabase
    let hub: LiveHub
    let logger: Logger

    func committed(_ changes: [ScopeChange]) async {
        guard !changes.isEmpty else { return }
        for change in changes { hub.deliver(change) }
        let unordered = changes.filter { !$0.isOrdered }
        guard !unordered.isEmpty else { return }
        do {
            try await database.run { sql in
                for change in unordered {
                    try await sql.raw(
                        "SELECT pg_notify(\(bind: PostgresChangeChannel.name), \(bind: PostgresChangeChannel.payload(for: change)))"
                    ).run()
                }
            }
        } catch {
            // The changes are committed; devices on other servers learn of them at their next nudge
            // or pull. Failing the push would only make the device send it again.
            logger.error(
                "Live nudges: NOTIFY failed; other servers' sockets miss this change until their next nudge",
                metadata: ["error": "\(String(reflecting: error))"])
        }
    }
}
