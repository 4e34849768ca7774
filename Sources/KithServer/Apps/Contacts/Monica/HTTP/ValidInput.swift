import Foundation
import KithCore

/// Input that passed validation, read with the same leniency the validator allowed.
struct ValidInput: Sendable {
    let input: MonicaInput

    /// Whether the parameter was sent at all (even as null): an update changes only what was sent.
    func has(_ name: String) -> Bool { input[name] != nil }
    func string(_ name: String) -> String? { input[name].flatMap(Self.text) }
    func int(_ name: String) -> Int64? { input[name].flatMap(Self.integer) }
    func double(_ name: String) -> Double? { input[name].flatMap(Self.number) }
    func bool(_ name: String) -> Bool? { input[name].flatMap(Self.boolean) }
    func array(_ name: String) -> [JSONTree]? { input[name]?.arrayValue }
    func date(_ name: String) -> String? { input[name].flatMap(Self.date) }
    /// A file of a multipart body, checked with `.file`.
    func file(_ name: String) -> UploadedFile? { input.files[name] }
    /// Milliseconds since 1970 of a field checked with `.instant`.
    func instant(_ name: String) -> Int64? { input[name].flatMap(Self.instant) }

    static func text(_ value: JSONTree) -> String? {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        default: nil
        }
    }

    static func integer(_ value: JSONTree) -> Int64? {
        switch value {
        case .int(let number): number
        case .double(let number) where number == number.rounded() && abs(number) < 9e15: Int64(number)
        case .string(let text): Int64(text)
        default: nil
        }
    }

    static func number(_ value: JSONTree) -> Double? {
        switch value {
        case .int, .double: value.doubleValue.flatMap { $0.isFinite ? $0 : nil }
        case .string(let text): Double(text).flatMap { $0.isFinite ? $0 : nil }
        default: nil
        }
    }

    static func boolean(_ value: JSONTree) -> Bool? {
        switch value {
        case .bool(let flag): flag
        case .int(0), .string("0"), .string("false"): false
        case .int(1), .string("1"), .string("true"): true
        default: nil
        }
    }

    /// A `Y-m-d` date that exists on the calendar, returned as written.
    static func date(_ value: JSONTree) -> String? {
        guard let text = value.stringValue, let day = MonicaDate(ymd: text) else { return nil }
        return day.ymd
    }

    static func instant(_ value: JSONTree) -> Int64? { value.stringValue.flatMap(MonicaInstant.millis) }
}
