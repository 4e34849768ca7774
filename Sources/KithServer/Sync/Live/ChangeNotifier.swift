/// A committed change as live sockets hear of it: which scope changed and the sequence value it
/// reached (values count per scope). A nudge for `seq` covers every earlier change in the scope,
/// since a pull after it sees them all.
struct ScopeChange: Sendable, Hashable {
    let scope: String
    /// 0 for a nudge that is no change of a record (`nudge(_:)`).
    let seq: Int64

    /// A nudge with no place in the scope's order (a membership changed, so the sockets read their
    /// scopes again): the hub always passes it on.
    static func nudge(_ scope: String) -> ScopeChange { ScopeChange(scope: scope, seq: 0) }

    var isOrdered: Bool { seq > 0 }

    /// One change per scope, the latest: what a push batch nudges.
    static func latestPerScope(_ changes: [ScopeChange]) -> [ScopeChange] {
        var latest: [String: Int64] = [:]
        for change in changes { latest[change.scope] = max(latest[change.scope] ?? change.seq, change.seq) }
        return latest.map { ScopeChange(scope: $0.key, seq: $0.value) }.sorted { $0.seq < $1.seq }
    }
}

/// Told about changes once they are committed; nudges every live socket that can read them, on
/// this server and, where the engine allows, on the others sharing the database.
protocol ChangeNotifier: Sendable {
    func committed(_ changes: [ScopeChange]) async
}
