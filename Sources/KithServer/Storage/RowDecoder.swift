import SQLKit
import SQLiteKit

/// Decodes a `Decodable` record from one row, a column per coding key. SQLKit's own row decoder
/// builds each column's name anew for every field and asks the row three times (present? null?
/// the value); a 50-contact page decodes 2,000 fields, and that was an eighth of its CPU (issue
/// 18). On SQLite each field is one lookup here; on PostgreSQL the row is asked as SQLKit would.
enum RowDecoder {
    static func decode<Record: Decodable>(_ type: Record.Type, from row: any SQLRow) throws -> Record {
        try Record(from: RowDecoding(row: row, sqlite: row as? SQLiteResultRow))
    }
}

extension SQLQueryFetcher {
    /// Every row, decoded by `RowDecoder`.
    func records<Record: Decodable>(_ type: Record.Type) async throws -> [Record] {
        try await all().map { try RowDecoder.decode(type, from: $0) }
    }

    /// The first row, decoded by `RowDecoder`.
    func record<Record: Decodable>(_ type: Record.Type) async throws -> Record? {
        try await first().map { try RowDecoder.decode(type, from: $0) }
    }
}

private struct RowDecoding: Decoder {
    let row: any SQLRow
    let sqlite: SQLiteResultRow?

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowContainer<Key>(row: row, sqlite: sqlite))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self, .init(codingPath: [], debugDescription: "A row decodes as a keyed record only."))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            Any.self, .init(codingPath: [], debugDescription: "A row decodes as a keyed record only."))
    }
}

private struct RowContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let row: any SQLRow
    let sqlite: SQLiteResultRow?

    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { row.allColumns.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { row.contains(column: key.stringValue) }

    func decodeNil(forKey key: Key) throws -> Bool { try row.decodeNil(column: key.stringValue) }

    // The synthesized `init(from:)` calls the concrete overloads, whose default forms would ask the
    // row three times (present? null? the value). On SQLite a text or integer column is read here
    // as it is stored, without the generic path's casts (a tenth of a contact page's CPU, issue
    // 18); anything else goes to one of `required` and `optional` below.
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try required(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        if case .text(let text)? = sqlite?.value(ofColumn: key.stringValue) { return text }
        return try required(type, key)
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        if case .integer(let integer)? = sqlite?.value(ofColumn: key.stringValue) { return Int64(integer) }
        return try required(type, key)
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try required(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try required(type, key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try required(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        switch sqlite?.value(ofColumn: key.stringValue) {
        case .text(let text)?: text
        case .null?: nil
        default: try optional(type, key)
        }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        switch sqlite?.value(ofColumn: key.stringValue) {
        case .integer(let integer)?: Int64(integer)
        case .null?: nil
        default: try optional(type, key)
        }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }

    private func required<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        if let sqlite {
            guard let value = sqlite.value(ofColumn: key.stringValue) else {
                throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "No column \(key.stringValue)."))
            }
            return try SQLiteResultRow.decode(value, as: T.self)
        }
        return try row.decode(column: key.stringValue, as: T.self)
    }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        if let sqlite {
            guard let value = sqlite.value(ofColumn: key.stringValue), value != .null else { return nil }
            return try SQLiteResultRow.decode(value, as: T.self)
        }
        guard row.contains(column: key.stringValue), try !row.decodeNil(column: key.stringValue) else { return nil }
        return try row.decode(column: key.stringValue, as: T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw DecodingError.typeMismatch(
            [String: Any].self, .init(codingPath: [key], debugDescription: "A column holds no nested record."))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self, .init(codingPath: [key], debugDescription: "A column holds no nested list."))
    }

    func superDecoder() throws -> any Decoder { RowDecoding(row: row, sqlite: sqlite) }

    func superDecoder(forKey key: Key) throws -> any Decoder { RowDecoding(row: row, sqlite: sqlite) }
}
