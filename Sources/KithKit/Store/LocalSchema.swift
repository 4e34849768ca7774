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
        migrator.registerMigration("3 clock offset") { db in
            // Milliseconds to add to this device's clock when it stamps: the server's time minus the
            // device's, when they differ by more than a round trip; and the latest stamp pulled,
            // which a clock moved back never stamps before (ClockRebase).
            try db.execute(
                sql: """
                    ALTER TABLE sync_state ADD COLUMN clock_offset INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE sync_state ADD COLUMN received_hlc TEXT;
                    """)
        }
        migrator.registerMigration("4 records per entity") { db in
            // A record is its entity and id here (the server keys records by scope and id, and this
            // device holds one scope per entity): a deletion or a queued change of one entity never
            // stands for another's record that happens to have the same id.
            try db.execute(
                sql: """
                    CREATE TABLE sync_tombstones_by_entity (
                        entity TEXT NOT NULL,
                        id TEXT NOT NULL,
                        scope TEXT NOT NULL,
                        hlc TEXT NOT NULL,
                        PRIMARY KEY (entity, id)
                    );
                    INSERT INTO sync_tombstones_by_entity (entity, id, scope, hlc)
                    SELECT entity, id, scope, hlc FROM sync_tombstones;
                    DROP TABLE sync_tombstones;
                    ALTER TABLE sync_tombstones_by_entity RENAME TO sync_tombstones;
                    DROP INDEX outbox_record;
                    CREATE INDEX outbox_record ON outbox (record_id, entity);
                    """)
        }
        return migrator
    }

    static func createEntityTables(_ catalog: EntityCatalog, _ db: Database) throws {
        for declaration in catalog.declarations { try EntityTable(declaration: declaration).createOrUpdate(db) }
    }
}
