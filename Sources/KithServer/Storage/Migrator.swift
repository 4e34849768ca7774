import Foundation
import SQLKit

/// Applies the numbered migrations in `Migrations.all` that a database has not seen yet, each in its
/// own transaction. Landed migrations are never edited: a change is a new migration.
struct Migrator {
    let database: KithDatabase

    func migrate() async throws {
        try await database.run { sql in
            try await sql.raw(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)
                """
            ).run()
        }
        let applied = try await database.run { sql in
            try await sql.raw("SELECT version FROM schema_migrations").all(decodingColumn: "version", as: Int.self)
        }
        let engine = database.engine
        for migration in Migrations.all where !applied.contains(migration.version) {
            try await database.transaction { sql in
                for statement in migration.statements(engine) {
                    try await sql.raw(SQLQueryString(statement)).run()
                }
                try await sql.raw(
                    """
                    INSERT INTO schema_migrations (version, name, applied_at)
                    VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: Clock.millis(Date())))
                    """
                ).run()
            }
        }
    }
}

struct Migration: Sendable {
    let version: Int
    let name: String
    /// The statements for an engine; most are the same text on both.
    let statements: @Sendable (KithDatabase.Engine) -> [String]
}
