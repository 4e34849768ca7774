import Foundation
import Hummingbird
import KithCore

/// The parameters of an `/api` write, from a JSON body or a form body, normalized as Laravel's
/// global middleware does before validation: strings trimmed, empty strings made null.
struct MonicaInput: Sendable {
    let values: [String: JSONTree]

    init(_ values: [String: JSONTree]) { self.values = values.mapValues(Self.normalized) }

    subscript(name: String) -> JSONTree? { values[name] }

    static func read(_ request: Request) async throws -> MonicaInput {
        let buffer = try await request.body.collect(upTo: SyncLimits.largestBody)
        let data = Data(buffer: buffer)
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        if contentType.hasPrefix("application/x-www-form-urlencoded") {
            return MonicaInput(form: String(decoding: data, as: UTF8.self))
        }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return MonicaInput([:]) }
        guard case .object(let object)? = JSONTree.parse(data) else { throw MonicaError.badJSON }
        return MonicaInput(Dictionary(uniqueKeysWithValues: object.members.map { ($0.key, $0.value) }))
    }

    /// `a=1&tags[]=x&tags[]=y&contacts[0]=3`: bracketed names gather into arrays, in order.
    init(form: String) {
        var values: [String: JSONTree] = [:]
        var arrays: [String: [JSONTree]] = [:]
        for pair in form.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            guard let name = parts.first, !name.isEmpty else { continue }
            let value = JSONTree.string(parts.count > 1 ? parts[1] : "")
            if let bracket = name.firstIndex(of: "["), name.hasSuffix("]") {
                arrays[String(name[..<bracket]), default: []].append(value)
            } else {
                values[name] = value
            }
        }
        for (name, items) in arrays { values[name] = .array(items) }
        self.init(values)
    }

    private static func normalized(_ value: JSONTree) -> JSONTree {
        switch value {
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? .null : .string(trimmed)
        case .array(let items): return .array(items.map(normalized))
        default: return value
        }
    }
}

/// One parameter's Laravel rules, in the order Laravel checks them.
struct FieldRules: Sendable {
    enum Rule: Sendable, Equatable {
        case required, nullable, string, integer, boolean, numeric, array
        case max(Int)
        /// A number from the first to the second, both included.
        case between(Int64, Int64)
        case oneOf([String])
        case dateYMD
    }

    let name: String
    let rules: [Rule]

    init(_ name: String, _ rules: Rule...) {
        self.name = name
        self.rules = rules
    }
}

/// Checks input against Laravel rules and answers with Laravel's messages (422, code 32), all
/// failing fields at once, the first failing rule of each. Lenient as Laravel: integers and
/// numbers may come as strings, booleans as true/false/0/1/"0"/"1".
struct MonicaValidator {
    static func validate(_ input: MonicaInput, _ fields: [FieldRules]) throws -> ValidInput {
        var messages: [String] = []
        for field in fields {
            if let value = input[field.name], containsNUL(value) {
                // PostgreSQL can't store it, and no name or note needs it: refused on every engine.
                messages.append("The \(field.name.replacingOccurrences(of: "_", with: " ")) must not contain a NUL character.")
            } else if let message = check(input[field.name], field) {
                messages.append(message)
            }
        }
        guard messages.isEmpty else { throw MonicaError.invalid(messages) }
        return ValidInput(input: input)
    }

    private static func containsNUL(_ value: JSONTree) -> Bool {
        switch value {
        case .string(let text): text.utf8.contains(0)
        case .array(let items): items.contains(where: containsNUL)
        case .object(let object): object.members.contains { $0.key.utf8.contains(0) || containsNUL($0.value) }
        default: false
        }
    }

    private static func check(_ value: JSONTree?, _ field: FieldRules) -> String? {
        let attribute = field.name.replacingOccurrences(of: "_", with: " ")
        let present = value.map { !$0.isNull && $0 != .array([]) } ?? false
        guard present, let value else {
            return field.rules.contains(.required) ? "The \(attribute) field is required." : nil
        }
        let isNumeric = field.rules.contains(.integer) || field.rules.contains(.numeric)
        for rule in field.rules {
            switch rule {
            case .required, .nullable: continue
            case .string:
                if value.stringValue == nil { return "The \(attribute) must be a string." }
            case .integer:
                if ValidInput.integer(value) == nil { return "The \(attribute) must be an integer." }
            case .numeric:
                if ValidInput.number(value) == nil { return "The \(attribute) must be a number." }
            case .boolean:
                if ValidInput.boolean(value) == nil { return "The \(attribute) field must be true or false." }
            case .array:
                if value.arrayValue == nil { return "The \(attribute) must be an array." }
            case .max(let limit):
                if isNumeric, let number = ValidInput.number(value), number > Double(limit) {
                    return "The \(attribute) must not be greater than \(limit)."
                }
                // Characters are Unicode code points, as Laravel's `mb_strlen` counts them: a
                // grapheme can hold any number of combining marks, so counting graphemes let a
                // "255-character" name weigh half a megabyte.
                if let text = value.stringValue, !isNumeric, text.unicodeScalars.count > limit {
                    return "The \(attribute) must not be greater than \(limit) characters."
                }
                if let items = value.arrayValue, items.count > limit {
                    return "The \(attribute) must not have more than \(limit) items."
                }
            case .between(let low, let high):
                if let number = ValidInput.number(value), !(Double(low)...Double(high)).contains(number) {
                    return "The \(attribute) must be between \(low) and \(high)."
                }
            case .oneOf(let allowed):
                if !allowed.contains(ValidInput.text(value) ?? "") { return "The selected \(attribute) is invalid." }
            case .dateYMD:
                if ValidInput.date(value) == nil { return "The \(attribute) does not match the format Y-m-d." }
            }
        }
        return nil
    }
}

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
}
