extension Migrations {
    /// A change counter per scope (docs/sync.md, "The change sequence"), so writers of different
    /// scopes no longer take turns on one row. `sync_counter` keeps its last value as the floor
    /// every scope's counter starts above: no cursor position handed out before is passed over.
    static let scopeCounters = Migration(version: 19, name: "scope counters") { _ in
        ["CREATE TABLE sync_scope_counters (scope TEXT PRIMARY KEY, value BIGINT NOT NULL)"]
    }
}
