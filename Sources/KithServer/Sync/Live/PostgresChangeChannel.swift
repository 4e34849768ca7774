/// The PostgreSQL channel servers announce committed changes on, and its payload: `<scope> <seq>`.
enum PostgresChangeChannel {
    static let name = "kith_changes"

    static func payload(for change: ScopeChange) -> String { "\(change.scope) \(change.seq)" }

    /// The change a payload announces; nil for anything else (another program may use the channel).
    static func change(fromPayload payload: String) -> ScopeChange? {
        guard let space = payload.lastIndex(of: " ") else { return nil }
        let scope = String(payload[..<space])
        guard !scope.isEmpty, let seq = Int64(payload[payload.index(after: space)...]), seq >= 0 else { return nil }
        return ScopeChange(scope: scope, seq: seq)
    }
}
