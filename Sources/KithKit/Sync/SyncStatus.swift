import Foundation

/// What the sync engine is doing, for a status line or badge (docs/sync.md). `pending` is the number of
/// local changes not yet acknowledged by the server.
public enum SyncStatus: Sendable, Equatable {
    /// Everything is pushed and the last pull found nothing more (or the engine has not started).
    case idle
    case syncing(pending: Int)
    /// The server can't be reached; changes stay queued and go out when it can.
    case offline(pending: Int)
    /// Sync failed for another reason (session expired, server error); retried with backoff.
    case error(message: String, pending: Int)

    public var pending: Int {
        switch self {
        case .idle: 0
        case .syncing(let pending), .offline(let pending), .error(_, let pending): pending
        }
    }

    /// A short line for people: "Synced", "Syncing 3 changes…", "Offline, 3 changes waiting".
    public var summary: String {
        func changes(_ count: Int) -> String { count == 1 ? "1 change" : "\(count) changes" }
        switch self {
        case .idle: return "Synced"
        case .syncing(let pending): return pending == 0 ? "Syncing…" : "Syncing \(changes(pending))…"
        case .offline(let pending): return pending == 0 ? "Offline" : "Offline, \(changes(pending)) waiting"
        case .error(let message, let pending):
            return pending == 0 ? "Sync failed: \(message)" : "Sync failed: \(message) (\(changes(pending)) waiting)"
        }
    }
}
