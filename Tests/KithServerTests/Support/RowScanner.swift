import Foundation
import KithServer
import SQLKit

/// Finds rows anywhere in the database that mention a value (a user id, an email), so a deletion
/// test covers tables added later without being updated.
enum RowScanner {
    static func rows(mentioning values: [String], in database: KithDatabase) async throws -> [String] {
        try await database.run { sql in
            let columns: [(table: String, column: String)]
            switch database.engine {
            case .sqlite:
                let tables = try await sql.raw(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                ).all(decodingColumn: "name", as: String.self)
                var found: [(String, String)] = []
                for table in tables {
                    let names = try await sql.raw("SELECT name FROM pragma_table_info(\(bind: table))")
                        .all(decodingColumn: "name", as: String.self)
                    found += names.map { (table, $0) }
                }
                columns = found
            case .postgres:
                let rows = try await sql.raw(
                    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'"
                ).all()
                columns = try rows.map {
                    (try $0.decode(column: "table_name", as: String.self), try $0.decode(column: "column_name", as: String.self))
                }
            }
            var hits: [String] = []
            for (table, column) in columns {
                for value in values {
                    let count = try await sql.raw(
                        """
                        SELECT COUNT(*) AS n FROM \(ident: table)
                        WHERE CAST(\(ident: column) AS TEXT) = \(bind: value)
                        """
                    ).first(decodingColumn: "n", as: Int.self) ?? 0
                    if count > 0 { hits.append("\(table).\(column) = \(value) (\(count) rows)") }
                }
            }
            return hits
        }
    }
}
