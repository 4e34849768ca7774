import GRDB

/// The offline cache's tables, by numbered migrations (never edited once shipped).
enum ContactCacheSchema {
    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1 contacts cache") { db in
            try db.execute(
                sql: """
                    CREATE TABLE cache_state (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        next_temporary_id INTEGER NOT NULL DEFAULT -1,
                        contacts_generation INTEGER NOT NULL DEFAULT 0,
                        contacts_synced_at REAL
                    );
                    INSERT INTO cache_state (id) VALUES (1);
                    -- One row per contact: Monica's JSON (as decoded and re-encoded), its place in
                    -- Monica's order, and the folded words search reads.
                    CREATE TABLE contacts (
                        id INTEGER PRIMARY KEY,
                        position INTEGER NOT NULL,
                        search_text TEXT NOT NULL,
                        body BLOB NOT NULL,
                        fetched_at REAL NOT NULL
                    );
                    CREATE INDEX contacts_position ON contacts (position, id);
                    -- A contact's notes, tasks, activities, gifts, reminders, relationships, as
                    -- last seen on its detail page.
                    CREATE TABLE contact_details (
                        contact_id INTEGER PRIMARY KEY,
                        body BLOB NOT NULL,
                        fetched_at REAL NOT NULL
                    );
                    -- Addresses apart from their contact, because edits made offline change them
                    -- here first (negative ids until the server gives one).
                    CREATE TABLE addresses (
                        id INTEGER PRIMARY KEY,
                        contact_id INTEGER NOT NULL,
                        position INTEGER NOT NULL,
                        body BLOB NOT NULL
                    );
                    CREATE INDEX addresses_contact ON addresses (contact_id, position);
                    CREATE TABLE countries (
                        code TEXT PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL
                    );
                    -- Address edits not yet sent, replayed in order.
                    CREATE TABLE address_edits (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        action TEXT NOT NULL,
                        address_id INTEGER NOT NULL,
                        contact_id INTEGER NOT NULL,
                        input BLOB,
                        queued_at REAL NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        last_error TEXT
                    );
                    -- Edits the server refused, kept so the person can see what did not stick.
                    CREATE TABLE address_edit_failures (
                        seq INTEGER PRIMARY KEY,
                        action TEXT NOT NULL,
                        address_id INTEGER NOT NULL,
                        contact_id INTEGER NOT NULL,
                        input BLOB,
                        message TEXT NOT NULL,
                        failed_at REAL NOT NULL
                    );
                    -- Which server id a temporary (negative) address id became.
                    CREATE TABLE temporary_ids (
                        temporary_id INTEGER PRIMARY KEY,
                        address_id INTEGER NOT NULL
                    );
                    """)
        }
        return migrator
    }
}
