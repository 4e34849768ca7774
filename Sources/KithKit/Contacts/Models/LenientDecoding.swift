import Foundation

// How Monica's models read JSON as real servers send it: numbers sometimes as strings ("12",
// "12.50"), booleans as 0/1 or "0"/"1", timestamps with or without fractional seconds, any optional
// key missing or null, a nested object of the wrong shape as nil, a list keeping the items it can
// read. A model declares its fields with these property wrappers and nothing else:
//
//     @Required public var id: Int             // lenient, but missing or unreadable fails the object
//     @Lenient public var name: String         // missing, null or unreadable: "" (false, 0, [], nil)
//     @Defaulted<OneTime> public var frequencyType: String   // …or a fallback of the field's own
//     @Nested<ObjectID> public var accountID: Int?          // read inside an object: {"id": 7}
//
// Encoding writes each field under its key as it is (nil left out), so a value encoded by this SDK
// (the contacts cache stores its models as JSON, dates as seconds) reads back the same.

/// A value read leniently from Monica's JSON. Models conform with their own `Decodable`; the
/// scalars (`Int`, `Double`, `Bool`, `String`, `Date`) accept Monica's other spellings of them.
public protocol LenientDecodable: Codable, Sendable {
    /// The value from what the server sent under a key; throws when it is unusable.
    static func decodeLeniently(from decoder: any Decoder) throws -> Self
}

extension LenientDecodable {
    public static func decodeLeniently(from decoder: any Decoder) throws -> Self { try Self(from: decoder) }
}

/// A lenient value with a natural fallback for a key that is missing, null or unreadable.
public protocol LenientDefault: LenientDecodable {
    static var lenientFallback: Self { get }
}

/// A field's own fallback (`@Defaulted<…>`), for fields whose fallback is not the type's.
public protocol LenientFallback {
    associatedtype Value: LenientDecodable
    static var value: Value { get }
}

/// A field Monica sends inside an object under another key (`@Nested<…>`): `{"id": 7}`.
public protocol NestedField {
    associatedtype Value: LenientDefault
    /// The key inside the object.
    static var key: String { get }
}

// MARK: Property wrappers

/// A field whose missing, null or unreadable value reads as its type's fallback (nil, "", 0,
/// false, []), never failing the object.
@propertyWrapper
public struct Lenient<Value: LenientDefault>: Codable, Sendable {
    public var wrappedValue: Value

    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

    public init() { wrappedValue = Value.lenientFallback }

    public init(from decoder: any Decoder) throws {
        wrappedValue = (try? Value.decodeLeniently(from: decoder)) ?? Value.lenientFallback
    }

    public func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        try value.encode(wrappedValue)
    }
}

/// A field the object cannot do without (its `id`): read leniently, but missing or unreadable
/// fails the object (which a list then leaves out).
@propertyWrapper
public struct Required<Value: LenientDecodable>: Codable, Sendable {
    public var wrappedValue: Value

    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws { wrappedValue = try Value.decodeLeniently(from: decoder) }

    public func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        try value.encode(wrappedValue)
    }
}

/// A lenient field with a fallback of its own: `@Defaulted<OneTime> var frequencyType: String`.
@propertyWrapper
public struct Defaulted<Fallback: LenientFallback>: Codable, Sendable {
    public var wrappedValue: Fallback.Value

    public init(wrappedValue: Fallback.Value) { self.wrappedValue = wrappedValue }

    public init() { wrappedValue = Fallback.value }

    public init(from decoder: any Decoder) throws {
        wrappedValue = (try? Fallback.Value.decodeLeniently(from: decoder)) ?? Fallback.value
    }

    public func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        try value.encode(wrappedValue)
    }
}

/// A lenient field Monica wraps in an object (`"account": {"id": 1}`), read from and written back
/// to that shape. Missing, null or not an object: the value's fallback.
@propertyWrapper
public struct Nested<Field: NestedField>: Codable, Sendable {
    public var wrappedValue: Field.Value

    public init(wrappedValue: Field.Value) { self.wrappedValue = wrappedValue }

    public init() { wrappedValue = Field.Value.lenientFallback }

    public init(from decoder: any Decoder) throws {
        let object = try? decoder.container(keyedBy: AnyCodingKey.self)
        wrappedValue =
            (try? object?.decode(Lenient<Field.Value>.self, forKey: AnyCodingKey(Field.key)))?
            .wrappedValue ?? Field.Value.lenientFallback
    }

    public func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: AnyCodingKey.self)
        try object.encode(Lenient(wrappedValue: wrappedValue), forKey: AnyCodingKey(Field.key))
    }
}

extension Lenient: Equatable where Value: Equatable {}
extension Required: Equatable where Value: Equatable {}
extension Defaulted: Equatable where Fallback.Value: Equatable {}
extension Nested: Equatable where Field.Value: Equatable {}

// A missing key is not an error for a field that has a fallback, and a nil one is left out when
// written, as for an optional property.

extension KeyedDecodingContainer {
    public func decode<Value>(_ type: Lenient<Value>.Type, forKey key: Key) throws -> Lenient<Value> {
        try decodeIfPresent(type, forKey: key) ?? Lenient()
    }

    public func decode<Fallback>(_ type: Defaulted<Fallback>.Type, forKey key: Key) throws -> Defaulted<Fallback> {
        try decodeIfPresent(type, forKey: key) ?? Defaulted()
    }

    public func decode<Field>(_ type: Nested<Field>.Type, forKey key: Key) throws -> Nested<Field> {
        try decodeIfPresent(type, forKey: key) ?? Nested()
    }
}

extension KeyedEncodingContainer {
    public mutating func encode<Value>(_ field: Lenient<Value>, forKey key: Key) throws {
        try encodeUnlessNil(field.wrappedValue, field.wrappedValue, forKey: key)
    }

    public mutating func encode<Fallback>(_ field: Defaulted<Fallback>, forKey key: Key) throws {
        try encodeUnlessNil(field.wrappedValue, field.wrappedValue, forKey: key)
    }

    public mutating func encode<Field>(_ field: Nested<Field>, forKey key: Key) throws {
        try encodeUnlessNil(field.wrappedValue, field, forKey: key)
    }

    /// `encoded` under `key`, unless `value` is nil (generic, so it never calls the overloads above).
    private mutating func encodeUnlessNil<Encoded: Encodable>(_ value: some Any, _ encoded: Encoded, forKey key: Key)
        throws
    {
        guard !((value as? any OptionalValue)?.isNone ?? false) else { return }
        try encode(encoded, forKey: key)
    }
}

private protocol OptionalValue { var isNone: Bool { get } }

extension Optional: OptionalValue {
    fileprivate var isNone: Bool { self == nil }
}

/// Any key, for the objects `Nested` reads inside.
struct AnyCodingKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

// MARK: What each type accepts

extension Int: LenientDefault {
    public static var lenientFallback: Int { 0 }

    /// `12`, `12.0`, `"12"`.
    public static func decodeLeniently(from decoder: any Decoder) throws -> Int {
        let value = try decoder.singleValueContainer()
        if let number = try? value.decode(Int.self) { return number }
        if let number = try? value.decode(Double.self), number.rounded() == number, abs(number) < 9e15 {
            return Int(number)
        }
        if let text = try? value.decode(String.self), let number = Int(text.trimmingCharacters(in: .whitespaces)) {
            return number
        }
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: decoder.codingPath,
                debugDescription: "\(decoder.codingPath.last?.stringValue ?? "value") must be a whole number"))
    }
}

extension Double: LenientDefault {
    public static var lenientFallback: Double { 0 }

    /// `48.85` or `"48.85"`.
    public static func decodeLeniently(from decoder: any Decoder) throws -> Double {
        let value = try decoder.singleValueContainer()
        if let number = try? value.decode(Double.self) { return number }
        if let text = try? value.decode(String.self), let number = Double(text.trimmingCharacters(in: .whitespaces)) {
            return number
        }
        throw unusable(decoder, "a number")
    }
}

extension Bool: LenientDefault {
    public static var lenientFallback: Bool { false }

    /// `true`, `1`, `"1"`, `"true"`, `"yes"`, `"on"` (and their opposites; `""` is false).
    public static func decodeLeniently(from decoder: any Decoder) throws -> Bool {
        let value = try decoder.singleValueContainer()
        if let flag = try? value.decode(Bool.self) { return flag }
        if let number = try? value.decode(Int.self) { return number != 0 }
        if let text = try? value.decode(String.self) {
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "1", "true", "yes", "on": return true
            case "0", "false", "no", "off", "": return false
            default: break
            }
        }
        throw unusable(decoder, "a boolean")
    }
}

extension String: LenientDefault {
    public static var lenientFallback: String { "" }

    /// Text, or a number written as text (Monica sends gift amounts either way).
    public static func decodeLeniently(from decoder: any Decoder) throws -> String {
        let value = try decoder.singleValueContainer()
        if let text = try? value.decode(String.self) { return text }
        if let number = try? value.decode(Int.self) { return String(number) }
        if let number = try? value.decode(Double.self) { return String(number) }
        throw unusable(decoder, "text")
    }
}

extension Date: LenientDecodable {
    /// Monica's timestamps (`MonicaTimestamp`), or seconds since 1970 as the contacts cache writes them.
    public static func decodeLeniently(from decoder: any Decoder) throws -> Date {
        let value = try decoder.singleValueContainer()
        if let text = try? value.decode(String.self) {
            guard let date = MonicaTimestamp.parse(text) else { throw unusable(decoder, "a timestamp") }
            return date
        }
        if let seconds = try? value.decode(Double.self) { return Date(timeIntervalSince1970: seconds) }
        throw unusable(decoder, "a timestamp")
    }
}

extension MonicaDay: LenientDecodable {}

extension Optional: LenientDecodable where Wrapped: LenientDecodable {
    public static func decodeLeniently(from decoder: any Decoder) throws -> Wrapped? {
        try Wrapped.decodeLeniently(from: decoder)
    }
}

extension Optional: LenientDefault where Wrapped: LenientDecodable {
    public static var lenientFallback: Wrapped? { nil }
}

extension Array: LenientDecodable where Element: LenientDecodable {
    /// A list, keeping the elements that read and leaving out the ones that don't.
    public static func decodeLeniently(from decoder: any Decoder) throws -> [Element] {
        try [Lossy<Element>](from: decoder).compactMap(\.value)
    }
}

extension Array: LenientDefault where Element: LenientDecodable {
    public static var lenientFallback: [Element] { [] }
}

extension Dictionary: LenientDecodable where Key == String, Value: LenientDecodable {}

extension Dictionary: LenientDefault where Key == String, Value: LenientDecodable {
    public static var lenientFallback: [String: Value] { [:] }
}

private func unusable(_ decoder: any Decoder, _ what: String) -> DecodingError {
    DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not \(what)"))
}

/// One element of a list that may not read: nil instead of failing the list.
struct Lossy<T: LenientDecodable>: Decodable {
    let value: T?
    init(from decoder: any Decoder) throws { value = try? T.decodeLeniently(from: decoder) }
}

/// Monica's timestamps: `2024-05-04T08:06:05Z`, Carbon's `2024-05-04T08:06:05.000000Z`, an offset
/// instead of `Z`, or a plain `2024-05-04` (midnight UTC).
enum MonicaTimestamp {
    static func parse(_ text: String) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard text.count >= 10 else { return nil }
        if text.count == 10 { return MonicaDay(text)?.midnightUTC }
        var withoutFraction = text
        var fraction = 0.0
        if let dot = text.firstIndex(of: ".") {
            let zone = text[dot...].firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" }) ?? text.endIndex
            fraction = Double("0" + text[dot..<zone]) ?? 0
            withoutFraction = String(text[..<dot] + text[zone...])
        }
        // "2024-05-04 08:06:05" (MySQL's format, as some exports have it) reads as UTC.
        withoutFraction = withoutFraction.replacingOccurrences(of: " ", with: "T")
        if !withoutFraction.hasSuffix("Z") && !withoutFraction.dropFirst(19).contains(where: { $0 == "+" || $0 == "-" })
        {
            withoutFraction += "Z"
        }
        // A format style is a value: safe to use from any thread, unlike a shared formatter.
        guard let whole = try? Date.ISO8601FormatStyle().parse(withoutFraction) else { return nil }
        return whole.addingTimeInterval(fraction)
    }
}
