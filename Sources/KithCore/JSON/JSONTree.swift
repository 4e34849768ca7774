import Foundation

/// Any JSON value, the one type for JSON everywhere: a synced record's field values (scalars,
/// checked by `EntityDeclaration`) and Monica's documents alike. Object keys keep the order they
/// were written (Monica's answers are read by people, in Monica's key order), and `null` is written
/// out instead of dropped. JSON has one number type, so `.int(2)` equals `.double(2)`.
public enum JSONTree: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONTree])
    case object(JSONObject)

    /// The member `key` of an object; nil when absent or when this is not an object.
    public subscript(key: String) -> JSONTree? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` of an array; nil when out of range or not an array.
    public subscript(index: Int) -> JSONTree? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    public var isNull: Bool { self == .null }
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var intValue: Int64? { if case .int(let value) = self { value } else { nil } }
    public var arrayValue: [JSONTree]? { if case .array(let value) = self { value } else { nil } }
    public var objectValue: JSONObject? { if case .object(let value) = self { value } else { nil } }

    /// Numbers of either kind as a Double.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The value, or `.null` when there is none.
    public static func nullable(_ value: String?) -> JSONTree { value.map(JSONTree.string) ?? .null }
    public static func nullable(_ value: Int64?) -> JSONTree { value.map(JSONTree.int) ?? .null }
    public static func nullable(_ value: Double?) -> JSONTree { value.map(JSONTree.double) ?? .null }
    public static func nullable(_ value: Bool?) -> JSONTree { value.map(JSONTree.bool) ?? .null }
    public static func nullable(_ value: JSONTree?) -> JSONTree { value ?? .null }
}

/// A JSON object's members in insertion order, with lookup by key. Members are kept in an array:
/// most objects are a presenter's few dozen keys, where a scan is quicker than hashing (a
/// dictionary per object was a tenth of a contact page's CPU); past `scanLimit` members
/// (a parsed body may hold thousands) lookups go through positions by key. A full Monica contact
/// has about 30 members, under the limit: indexing each one was 3 % of a contact page.
public struct JSONObject: Sendable, Hashable {
    public private(set) var members: [(key: String, value: JSONTree)] = []
    private var positions: [String: Int]?
    static let scanLimit = 48

    public init() {}

    public init(_ members: [(String, JSONTree)]) {
        self.members.reserveCapacity(members.count)
        for (key, value) in members { self[key] = value }
    }

    public subscript(key: String) -> JSONTree? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let index = position(of: key) {
                if let newValue {
                    members[index].value = newValue
                } else {
                    members.remove(at: index)
                    indexIfLarge()
                }
            } else if let newValue {
                members.append((key, newValue))
                if positions != nil {
                    positions?[key] = members.count - 1
                } else if members.count > Self.scanLimit {
                    indexIfLarge()
                }
            }
        }
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }

    /// The members by key (an object's keys are unique: setting a key again replaces its value).
    public var dictionary: [String: JSONTree] { Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value) }) }

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        // Keys of another length are passed over without a string comparison (a call each).
        let length = key.utf8.count
        return members.firstIndex { $0.key.utf8.count == length && $0.key == key }
    }

    private mutating func indexIfLarge() {
        positions =
            members.count > Self.scanLimit
            ? Dictionary(uniqueKeysWithValues: members.enumerated().map { ($0.element.key, $0.offset) }) : nil
    }

    /// JSON objects are equal whatever the order of their keys.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }

    /// Whatever the order of the keys, as equality is.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            sum &+= memberHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}

extension JSONTree: ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    public init(dictionaryLiteral elements: (String, JSONTree)...) { self = .object(JSONObject(elements)) }
    public init(arrayLiteral elements: JSONTree...) { self = .array(elements) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
}

// MARK: Equality: one number type

extension JSONTree {
    public static func == (lhs: JSONTree, rhs: JSONTree) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.int, .double), (.double, .int), (.double, .double): lhs.doubleValue == rhs.doubleValue
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let items): hasher.combine(items)
        case .object(let object): hasher.combine(object)
        case .int, .double: hasher.combine(doubleValue)
        }
    }
}

// MARK: Reading

extension JSONTree: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Strings first: most values are, and a decoder turns no other JSON value into a String.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode([JSONTree].self) {
            self = .array(value)
        } else {
            // The decoder does not say in which order an object's keys came; sorted is at least stable.
            let members = try container.decode([String: JSONTree].self)
            self = .object(JSONObject(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        }
    }

    /// Parses a JSON text; nil when it is not JSON (see JSONParser.swift).
    public static func parse(_ data: Data) -> JSONTree? { parse(bytes: data) }
}

// MARK: Writing

extension JSONTree: Encodable {
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .int(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .double(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case .object(let object):
            var container = encoder.container(keyedBy: MemberKey.self)
            for (key, value) in object.members { try container.encode(value, forKey: MemberKey(stringValue: key)) }
        }
    }

    private struct MemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension JSONTree: JSONWritable {
    /// The JSON text, keys in insertion order, without spaces.
    public func serialized() -> [UInt8] { jsonBytes }

    public var text: String { String(decoding: serialized(), as: UTF8.self) }

    public func writeJSON(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): JSONText.append(integer: value, to: &output)
        case .double(let value):
            output.append(contentsOf: (value.isFinite ? Self.number(value) : "null").utf8)
        case .string(let value): JSONText.append(string: value, to: &output)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                item.writeJSON(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONText.append(key: member.key, to: &output)
                member.value.writeJSON(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Integral doubles keep no ".0" when exact (JSON has one number type); others the shortest form.
    private static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
