/// Web Push's tables (docs/push.md), listed in `Migrations.all` by version.
extension Migrations {
    /// The server's VAPID key pair, one row made once (whoever starts first) and read by every
    /// server on the database, and each account's devices. An endpoint belongs to one account:
    /// the browser profile it came from is signed in to that account.
    static let webPush = Migration(version: 14, name: "web push") { _ in
        [
            """
            CREATE TABLE push_server_keys (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                private_key TEXT NOT NULL,
                public_key TEXT NOT NULL,
                created_at BIGINT NOT NULL)
            """,
            """
            CREATE TABLE push_subscriptions (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                endpoint TEXT NOT NULL UNIQUE,
                p256dh TEXT NOT NULL,
                auth TEXT NOT NULL,
                kinds TEXT NOT NULL,
                name TEXT NOT NULL,
                expires_at BIGINT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                last_used_at BIGINT)
            """,
            "CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id)",
        ]
    }

    /// When each person wants the Contacts app's dated reminders pushed: an hour on their zone's
    /// clock. No row: 09:00 UTC.
    static let pushReminderTimes = Migration(version: 15, name: "push reminder times") { _ in
        [
            """
            CREATE TABLE push_reminder_times (
                user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                hour INTEGER NOT NULL,
                time_zone TEXT NOT NULL,
                updated_at BIGINT NOT NULL)
            """
        ]
    }
}
