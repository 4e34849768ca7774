import GRDBSQLite
import SQLKit
import SQLiteKit

/// One row a `SQLiteHandle` read, as SQLKit decodes it. Values are decoded by SQLiteKit's decoder,
/// so every record reads exactly as it did through SQLiteNIO.
struct SQLiteResultRow: SQLRow {
    /// A statement's column names, found once per execution and shared by its rows.
    final class Columns: Sendable {
        let names: [String]
        let index: [String: Int]
        var count: Int { names.count }

        init(of statement: OpaquePointer) {
            let names = (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_name(statement, $0)) }
            self.names = names
            // The first of two equal names wins, as a lookup by name in SQLite's own API would.
            self.index = names.enumerated().reduce(into: [:]) { index, column in
                if index[column.element] == nil { index[column.element] = column.offset }
            }
        }
    }

    private static let decoder = SQLiteDataDecoder()

    let columns: Columns
    let values: [SQLiteData]

    var allColumns: [String] { columns.names }

    func contains(column: String) -> Bool { columns.index[column] != nil }

    func decodeNil(column: String) throws -> Bool { value(column) == .null }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let value = columns.index[column].map({ values[$0] }) else {
            throw SQLiteFailure(code: SQLITE_ERROR, message: "no column named \(column) in this row")
        }
        return try Self.decoder.decode(D.self, from: value)
    }

    private func value(_ column: String) -> SQLiteData { columns.index[column].map { values[$0] } ?? .null }
}
