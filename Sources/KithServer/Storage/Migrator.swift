import Foundation
import SQLKit

/// Applies the numbered migrations in `Migrations.all` that a database has not seen yet, each in its
/// own transaction. Landed migrations are never edited: a change is a new migration.
struct Migrator {
    let database: KithDatabase
    let clock: Clock
    /// All of them, except where a test makes a database as an older server left it.
    var migrations = Migrations.all

    /// Runs as one transaction: on PostgreSQL, DDL is transactional and an advisory lock makes
    /// servers that start together on one database take turns; SQLite's write lock does the same.
    func migrate() async throws {
        let engine = database.engine
        try await database.transaction { sql in
            if engine == .postgres {
                try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: Self.lockKey))").run()
            }
            try await sql.raw(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)
                """
            ).run()
            let applied = Set(
                try await sql.raw("SELECT version FROM schema_migrations").all(decodingColumn: "version", as: Int.self))
            for migration in migrations where !applied.contains(migration.version) {
                for statement in migration.statements(engine) {
                    try await sql.raw(SQLQueryString(statement)).run()
                }
                try await sql.raw(
                    """
                    INSERT INTO schema_migrations (version, name, applied_at)
                    VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: clock.nowMillis))
                    """
                ).run()
            }
        }
    }

    /// Any fixed number, the same in every Kith server ("kith" in ASCII).
    private static let lockKey: Int64 = 0x6B_69_74_68
}

struct Migration: Sendable {
    let version: Int
    let name: String
    /// The statements for an engine; most are the same text on both.
    let statements: @Sendable (KithDatabase.Engine) -> [String]
}
