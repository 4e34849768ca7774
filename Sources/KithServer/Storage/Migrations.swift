/// Every schema change, in order. Never edit one that has landed; append a new one.
enum Migrations {
    static let all: [Migration] = [
        accounts, sync, recordRules, monicaContacts, tokenExpiry, credentialsHardening, jobs, families, familyNotices,
        familySnoozeLimit, sessionsByID, recordsPerScope, writeKeys, webPush, pushReminderTimes, dav, geocoding,
        accountCurrency, scopeCounters, monicaLife, monicaFiles, monicaAuditLogs,
    ]

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

    /// Tokens handed out by Monica's mobile sign-in (`POST /oauth/login`) expire, as Monica's do.
    static let tokenExpiry = Migration(version: 5, name: "personal token expiry") { _ in
        ["ALTER TABLE personal_tokens ADD COLUMN expires_at BIGINT"]
    }

    /// What a password reset or change ends, sign-in throttling per client address with
    /// devices that signed in before let through, and mutation ids per account.
    static let credentialsHardening = Migration(version: 6, name: "credentials hardening") { _ in
        [
            // `user` (made on the account page or /v1/tokens) or `sign-in` (Monica's /oauth/login):
            // a password change ends the second kind only.
            "ALTER TABLE personal_tokens ADD COLUMN origin TEXT NOT NULL DEFAULT 'user'",
            "UPDATE personal_tokens SET origin = 'sign-in' WHERE expires_at IS NOT NULL",
            "ALTER TABLE login_failures ADD COLUMN client TEXT NOT NULL DEFAULT ''",
            "CREATE INDEX login_failures_client ON login_failures(client, failed_at)",
            """
            CREATE TABLE known_devices (
                token_hash TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT NOT NULL)
            """,
            "CREATE INDEX known_devices_user ON known_devices(user_id)",
            // Mutation ids were global: another account reusing one had its change dropped as a
            // duplicate. The key is now (user, id); the old rows carry over.
            """
            CREATE TABLE sync_mutations_by_user (
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                mutation_id TEXT NOT NULL,
                applied_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, mutation_id))
            """,
            "INSERT INTO sync_mutations_by_user (user_id, mutation_id, applied_at) SELECT user_id, mutation_id, applied_at FROM sync_mutations",
            "DROP TABLE sync_mutations",
            "ALTER TABLE sync_mutations_by_user RENAME TO sync_mutations",
        ]
    }

    /// The persisted job runner (docs/jobs.md): work that must happen later, again after a failure,
    /// or once across servers sharing a database. Times are epoch milliseconds, as elsewhere.
    static let jobs = Migration(version: 7, name: "jobs") { _ in
        [
            // `key` dedupes: enqueueing a key that exists (in any status) adds nothing, so two
            // servers scheduling the same day's run make one job. `payload` is JSON text.
            // `claimed_by`/`claimed_until` are the lease of the runner working on it: a job
            // `running` past its lease belonged to a server that died and is taken back.
            """
            CREATE TABLE jobs (
                id TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                key TEXT NOT NULL UNIQUE,
                payload TEXT NOT NULL,
                status TEXT NOT NULL,
                run_at BIGINT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                max_attempts INTEGER NOT NULL,
                last_error TEXT,
                claimed_by TEXT,
                claimed_until BIGINT,
                created_at BIGINT NOT NULL,
                finished_at BIGINT)
            """,
            // What a runner looks for: pending jobs by due time; running jobs by lease end.
            "CREATE INDEX jobs_due ON jobs(status, run_at)",
            "CREATE INDEX jobs_lease ON jobs(status, claimed_until)",
            // The retention job looks for the accounts holding Nutrition days, across scopes.
            "CREATE INDEX sync_records_entity_scope ON sync_records(entity, scope)",
        ]
    }

    /// Decision 107: a session's tokens carry its id, so a session is found by its key and
    /// its token hashes need no index. A refresh rewrote two unique indexes of hashes and a third
    /// table's two; now it updates one row and adds one to the session's used tokens. SQLite cannot
    /// drop a column's `UNIQUE`, so both tables are made anew and their rows copied.
    static let sessionsByID = Migration(version: 11, name: "sessions found by id") { engine in
        let clustered = engine == .sqlite ? " WITHOUT ROWID" : ""
        return [
            """
            CREATE TABLE sessions_by_id (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                access_hash TEXT NOT NULL,
                access_expires_at BIGINT NOT NULL,
                refresh_hash TEXT,
                refresh_expires_at BIGINT,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT NOT NULL)
            """,
            """
            INSERT INTO sessions_by_id (id, user_id, kind, access_hash, access_expires_at, refresh_hash,
                                        refresh_expires_at, created_at, last_used_at)
            SELECT id, user_id, kind, access_hash, access_expires_at, refresh_hash, refresh_expires_at,
                   created_at, last_used_at
            FROM sessions
            """,
            // A session's used refresh tokens together, by the session's id.
            """
            CREATE TABLE used_refresh_tokens_by_session (
                session_id TEXT NOT NULL REFERENCES sessions_by_id(id) ON DELETE CASCADE,
                token_hash TEXT NOT NULL,
                used_at BIGINT NOT NULL,
                PRIMARY KEY (session_id, token_hash))\(clustered)
            """,
            """
            INSERT INTO used_refresh_tokens_by_session (session_id, token_hash, used_at)
            SELECT session_id, token_hash, used_at FROM used_refresh_tokens
            """,
            // Tokens handed out before carry no session id: each one's hash names its session, so
            // they keep working (and a used one is still caught) until they expire or rotate.
            // Nothing is added to this table again.
            """
            CREATE TABLE legacy_session_tokens (
                token_hash TEXT PRIMARY KEY,
                session_id TEXT NOT NULL REFERENCES sessions_by_id(id) ON DELETE CASCADE)\(clustered)
            """,
            """
            INSERT INTO legacy_session_tokens (token_hash, session_id)
            SELECT access_hash, id FROM sessions
            UNION ALL SELECT refresh_hash, id FROM sessions WHERE refresh_hash IS NOT NULL
            UNION ALL SELECT token_hash, session_id FROM used_refresh_tokens
            """,
            "CREATE INDEX legacy_session_tokens_session ON legacy_session_tokens(session_id)",
            // Nothing references the old tables now, so dropping them deletes nothing else.
            "DROP TABLE used_refresh_tokens",
            "DROP TABLE sessions",
            "ALTER TABLE sessions_by_id RENAME TO sessions",
            "ALTER TABLE used_refresh_tokens_by_session RENAME TO used_refresh_tokens",
            "CREATE INDEX sessions_user ON sessions(user_id)",
        ]
    }

    /// A synced record is known by its scope and id together (docs/sync.md, "Identity"): an id
    /// another account already used in its own scope is still free in yours, so no account can
    /// occupy a record id another will need (a derived goal or day id). The same rows, keyed anew;
    /// the indexes as before.
    static let recordsPerScope = Migration(version: 12, name: "records per scope") { engine in
        [
            """
            CREATE TABLE sync_records_by_scope (
                id TEXT NOT NULL,
                entity TEXT NOT NULL,
                scope TEXT NOT NULL,
                fields TEXT NOT NULL,
                stamps TEXT NOT NULL,
                deleted TEXT,
                seq BIGINT NOT NULL,
                PRIMARY KEY (scope, id))
            """,
            """
            INSERT INTO sync_records_by_scope (id, entity, scope, fields, stamps, deleted, seq)
            SELECT id, entity, scope, fields, stamps, deleted, seq FROM sync_records
            """,
            "DROP TABLE sync_records",
            "ALTER TABLE sync_records_by_scope RENAME TO sync_records",
            "CREATE INDEX sync_records_scope_seq ON sync_records(scope, seq)",
            "CREATE INDEX sync_records_scope_entity ON sync_records(scope, entity)",
            "CREATE INDEX sync_records_entity_scope ON sync_records(entity, scope)",
        ] + reminderIndexes(engine)
    }

    /// Write keys (docs/sync.md, "Write keys"): the key a writer chose for one change, per account,
    /// and the answer it got, so the same key again answers the same and writes nothing. `answer`
    /// is empty while the change is being made (a request in flight holds its key).
    static let writeKeys = Migration(version: 13, name: "write keys") { _ in
        [
            """
            CREATE TABLE write_keys (
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                key TEXT NOT NULL,
                request TEXT NOT NULL,
                answer TEXT,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, key))
            """,
            "CREATE INDEX write_keys_created ON write_keys(created_at)",
        ]
    }
}
