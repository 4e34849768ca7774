import Foundation
import KithCore
import SQLKit

/// A stored value of an `/api` table. Booleans are stored as 0/1 so one schema fits both engines.
enum DBValue: Sendable, Encodable, Equatable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)

    static func text(_ value: String?) -> DBValue { value.map(DBValue.text) ?? .null }
    static func int(_ value: Int64?) -> DBValue { value.map(DBValue.int) ?? .null }
    static func double(_ value: Double?) -> DBValue { value.map(DBValue.double) ?? .null }
    static func bool(_ value: Bool?) -> DBValue { value.map { .int($0 ? 1 : 0) } ?? .null }

    var textValue: String? { if case .text(let value) = self { value } else { nil } }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        }
    }
}

struct MonicaStorageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
