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
        guard let value = value(ofColumn: column) else {
            throw SQLiteFailure(code: SQLITE_ERROR, message: "no column named \(column) in this row")
        }
        return try Self.decode(value, as: D.self)
    }

    /// The column's value; nil when the row has no such column.
    func value(ofColumn column: String) -> SQLiteData? { columns.index[column].map { values[$0] } }

    /// A value of this row as `D`, as SQLiteKit's decoder reads it.
    static func decode<D: Decodable>(_ value: SQLiteData, as type: D.Type) throws -> D {
        if let direct = direct(value, as: D.self) { return direct }
        return try decoder.decode(D.self, from: value)
    }

    /// The value as `D` without a decoder, for the types and storage classes that need no
    /// conversion (what SQLiteKit's decoder would answer for them); nil leaves it to the decoder.
    private static func direct<D>(_ value: SQLiteData, as type: D.Type) -> D? {
        switch value {
        case .integer(let integer):
            if D.self == Int64.self || D.self == Int64?.self { return Int64(integer) as? D }
            if D.self == Int.self || D.self == Int?.self { return integer as? D }
        case .text(let text):
            if D.self == String.self || D.self == String?.self { return text as? D }
        case .null:
            if D.self == Int64?.self { return Int64?.none as? D }
            if D.self == String?.self { return String?.none as? D }
            if D.self == Int?.self { return Int?.none as? D }
        default: break
        }
        return nil
    }

    private func value(_ column: String) -> SQLiteData { columns.index[column].map { values[$0] } ?? .null }
}
