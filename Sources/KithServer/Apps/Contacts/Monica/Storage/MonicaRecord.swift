import Foundation
import KithCore
import SQLKit

/// A row of one of `/api`'s tables, typed. Every such table has an integer id, belongs to an
/// account, and has creation and update times in milliseconds (null only for the default types
/// Monica copies without them). Records are read by `MonicaTableStore`; repositories hand them to
/// presenters, which never see storage.
protocol MonicaRecord: Decodable, Sendable {
    static var table: String { get }
    var id: Int64 { get }
    var createdAt: Int64? { get }
    var updatedAt: Int64? { get }
}

extension MonicaRecord {
    /// A uuid for a resource whose table keeps none (relationships, contact field types), where
    /// Monica always sends one and its clients decode it: derived from the table and the id, so it
    /// is the same in every answer, forever, and unique as the id is.
    var derivedUUID: String { StableUUID.make(from: "\(Self.table) \(id)").lowercased }
}

/// A boolean column: stored as 0/1 so one schema fits both engines.
@propertyWrapper
struct StoredFlag: Decodable, Sendable, Equatable {
    var wrappedValue: Bool

    init(wrappedValue: Bool) { self.wrappedValue = wrappedValue }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? false : try container.decode(Int64.self) != 0
    }
}

extension KeyedDecodingContainer {
    /// A missing or null flag reads as false, as the column's NULL does. Read as the integer it is
    /// stored as, so a row decoder's fast path for integers serves it.
    func decode(_ type: StoredFlag.Type, forKey key: Key) throws -> StoredFlag {
        StoredFlag(wrappedValue: (try decodeIfPresent(Int64.self, forKey: key) ?? 0) != 0)
    }
}

extension SQLRow {
    func record<Record: MonicaRecord>(_ type: Record.Type) throws -> Record {
        try RowDecoder.decode(Record.self, from: self)
    }
}
