/// Every schema change, in order. Never edit one that has landed; append a new one.
enum Migrations {
    static let all: [Migration] = [accounts, sync, recordRules]

    static let accounts = Migration(version: 1, name: "accounts") { _ in
        [
            """
            CREATE TABLE users (
                id TEXT PRIMARY KEY,
                email TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                password_changed_at BIGINT NOT NULL)
            """,
            // One row per signed-in device or browser. Only hashes of tokens are kept.
            """
            CREATE TABLE sessions (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                access_hash TEXT NOT NULL UNIQUE,
                access_expires_at BIGINT NOT NULL,
                refresh_hash TEXT UNIQUE,
                refresh_expires_at BIGINT,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT NOT NULL)
            """,
            "CREATE INDEX sessions_user ON sessions(user_id)",
            // Refresh tokens already exchanged: presenting one again means it leaked, so the session dies.
            """
            CREATE TABLE used_refresh_tokens (
                token_hash TEXT PRIMARY KEY,
                session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                used_at BIGINT NOT NULL)
            """,
            "CREATE INDEX used_refresh_tokens_session ON used_refresh_tokens(session_id)",
            """
            CREATE TABLE personal_tokens (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                token_hash TEXT NOT NULL UNIQUE,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT)
            """,
            "CREATE INDEX personal_tokens_user ON personal_tokens(user_id)",
            """
            CREATE TABLE password_resets (
                token_hash TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT)
            """,
            "CREATE INDEX password_resets_user ON password_resets(user_id, created_at)",
            // Failed sign-ins by email (not user id), so unknown emails are throttled the same way.
            """
            CREATE TABLE login_failures (
                id TEXT PRIMARY KEY,
                email TEXT NOT NULL,
                failed_at BIGINT NOT NULL)
            """,
            "CREATE INDEX login_failures_email ON login_failures(email, failed_at)",
        ]
    }

    static let sync = Migration(version: 2, name: "sync") { _ in
        [
            // One row per synced record, in whatever scope. `fields` and `stamps` are JSON objects;
            // `seq` is the change sequence value of the record's last change (pull cursor).
            """
            CREATE TABLE sync_records (
                id TEXT PRIMARY KEY,
                entity TEXT NOT NULL,
                scope TEXT NOT NULL,
                fields TEXT NOT NULL,
                stamps TEXT NOT NULL,
                deleted TEXT,
                seq BIGINT NOT NULL)
            """,
            "CREATE INDEX sync_records_scope_seq ON sync_records(scope, seq)",
            // The single change counter. Updating its row inside each write transaction serializes
            // writers, so sequence order is commit order and a pull never skips a change.
            "CREATE TABLE sync_counter (id INTEGER PRIMARY KEY, value BIGINT NOT NULL)",
            "INSERT INTO sync_counter (id, value) VALUES (1, 0)",
            // Applied mutation ids, so a retried push is answered "duplicate" and applied once.
            """
            CREATE TABLE sync_mutations (
                mutation_id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                applied_at BIGINT NOT NULL)
            """,
            "CREATE INDEX sync_mutations_user ON sync_mutations(user_id)",
        ]
    }

    /// Rules across records read a scope's live records of one entity (a user's years).
    static let recordRules = Migration(version: 3, name: "record rules") { _ in
        ["CREATE INDEX sync_records_scope_entity ON sync_records(scope, entity)"]
    }
}
