import GRDB
import KithCore

/// The local database's tables: sync bookkeeping by numbered migrations, entity tables from the
/// declarations on every open (a newly declared field adds its column).
enum LocalSchema {
    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1 sync") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sync_state (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        client_id TEXT NOT NULL,
                        scope TEXT NOT NULL,
                        hlc TEXT,
                        cursor TEXT,
                        entities TEXT,
                        last_sync_at REAL
                    );
                    CREATE TABLE outbox (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        mutation_id TEXT NOT NULL UNIQUE,
                        entity TEXT NOT NULL,
                        record_id TEXT NOT NULL,
                        scope TEXT NOT NULL,
                        op TEXT NOT NULL,
                        fields TEXT NOT NULL,
                        hlc TEXT NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        last_error TEXT
                    );
                    CREATE INDEX outbox_record ON outbox (record_id);
                    CREATE TABLE sync_tombstones (
                        id TEXT PRIMARY KEY NOT NULL,
                        entity TEXT NOT NULL,
                        scope TEXT NOT NULL,
                        hlc TEXT NOT NULL
                    );
                    CREATE TABLE sync_rejections (
                        mutation_id TEXT PRIMARY KEY NOT NULL,
                        entity TEXT NOT NULL,
                        record_id TEXT NOT NULL,
                        code TEXT NOT NULL,
                        message TEXT NOT NULL,
                        at REAL NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("2 conflict log") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sync_conflicts (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        entity TEXT NOT NULL,
                        record_id TEXT NOT NULL,
                        kept_local TEXT NOT NULL,
                        kept_remote TEXT NOT NULL,
                        deleted_elsewhere INTEGER NOT NULL,
                        at REAL NOT NULL
                    );
                    """)
        }
        return migrator
    }

    static func createEntityTables(_ catalog: EntityCatalog, _ db: Database) throws {
        for declaration in catalog.declarations { try EntityTable(declaration: declaration).createOrUpdate(db) }
    }
}
