/// The Family app's tables, listed in `Migrations.all` by version.
extension Migrations {
    /// Families (docs/family.md), their members and join codes. Membership is what
    /// `FamilyScopeDirectory` reads on every request, so servers sharing a database agree at once.
    static let families = Migration(version: 8, name: "families") { engine in
        [
            """
            CREATE TABLE families (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                time_zone TEXT NOT NULL,
                created_at BIGINT NOT NULL)
            """,
            // One family per user: the user is the key. `record_id` is the member's `family.member`
            // record in the family's scope (new on every join: a deleted record stays deleted).
            """
            CREATE TABLE family_members (
                user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                family_id TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                role TEXT NOT NULL,
                display_name TEXT NOT NULL,
                record_id TEXT NOT NULL,
                joined_at BIGINT NOT NULL)
            """,
            "CREATE INDEX family_members_family ON family_members(family_id)",
            // Only a hash of each code is kept; a used one keeps its row until it would have expired.
            """
            CREATE TABLE family_join_codes (
                id TEXT PRIMARY KEY,
                code_hash TEXT NOT NULL UNIQUE,
                family_id TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                role TEXT NOT NULL,
                created_by TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_by TEXT,
                used_at BIGINT)
            """,
            "CREATE INDEX family_join_codes_family ON family_join_codes(family_id, expires_at)",
            // Wrong codes per user, for throttling guesses.
            """
            CREATE TABLE family_join_failures (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                failed_at BIGINT NOT NULL)
            """,
            "CREATE INDEX family_join_failures_user ON family_join_failures(user_id, failed_at)",
        ] + reminderIndexes(engine)
    }

    /// Seed 003's indexes: reminders by assignee and by family, each in creation order (made by
    /// migration 8, and again by 12 on the table it keys anew).
    static func reminderIndexes(_ engine: KithDatabase.Engine) -> [String] {
        func field(_ name: String) -> String {
            engine == .postgres ? "((fields::jsonb) ->> '\(name)')" : "json_extract(fields, '$.\(name)')"
        }
        return [
            """
            CREATE INDEX sync_records_reminder_assignee ON sync_records(\(field("assigneeId")), \(field("createdAt")))
            WHERE entity = 'family.reminder'
            """,
            """
            CREATE INDEX sync_records_reminder_family ON sync_records(scope, \(field("createdAt")))
            WHERE entity = 'family.reminder'
            """,
        ]
    }

    /// Notices (docs/family.md, "Notices"): each person's inbox. The unique key is the promise:
    /// one notice per (reminder, occurrence, kind, recipient), however many servers deliver.
    static let familyNotices = Migration(version: 9, name: "family notices") { _ in
        [
            """
            CREATE TABLE family_notices (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                family_id TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                reminder_id TEXT NOT NULL,
                occurrence BIGINT NOT NULL,
                kind TEXT NOT NULL,
                title TEXT NOT NULL,
                body TEXT NOT NULL,
                due_at BIGINT NOT NULL,
                delivered_at BIGINT NOT NULL,
                late INTEGER NOT NULL,
                read_at BIGINT,
                seq BIGINT NOT NULL,
                UNIQUE (reminder_id, occurrence, kind, user_id))
            """,
            // The inbox, newest first, and its unread count.
            "CREATE INDEX family_notices_inbox ON family_notices(user_id, seq)",
            "CREATE INDEX family_notices_unread ON family_notices(user_id, read_at)",
        ]
    }

    /// How often one occurrence's due notice may be snoozed, per family (parents set it).
    static let familySnoozeLimit = Migration(version: 10, name: "family snooze limit") { _ in
        ["ALTER TABLE families ADD COLUMN snooze_limit INTEGER NOT NULL DEFAULT 3"]
    }
}
