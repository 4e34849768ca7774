import Foundation
import KithCore

/// One parameter's Laravel rules, in the order Laravel checks them.
struct FieldRules: Sendable {
    enum Rule: Sendable, Equatable {
        case required, nullable, string, integer, boolean, numeric, array
        case max(Int)
        /// A number from the first to the second, both included.
        case between(Int64, Int64)
        case oneOf([String])
        case dateYMD
        /// A day, or a day and a time (Laravel's `date`), by `MonicaInstant`.
        case instant
        /// A number no smaller than this (Laravel's `min` on a numeric field).
        case atLeast(Int64)
        /// An `http` or `https` address (Laravel's `url`, narrowed to what a browser should open).
        case webLink
        /// An email address (Laravel's `email`), by `ContactValueFormats`.
        case email
        /// A file of a multipart body, of at most this many kilobytes (Laravel's `file|max:N`).
        case file(maxKilobytes: Int)
        /// A picture a browser shows, by its bytes (Laravel's `image`, without SVG, which can
        /// carry script).
        case image
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
                messages.append(
                    "The \(field.name.replacingOccurrences(of: "_", with: " ")) must not contain a NUL character.")
            } else if field.rules.contains(where: \.isFile) {
                if let message = checkFile(input, field) { messages.append(message) }
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

    private static func checkFile(_ input: MonicaInput, _ field: FieldRules) -> String? {
        let attribute = field.name.replacingOccurrences(of: "_", with: " ")
        guard let file = input.files[field.name] else {
            if let value = input[field.name], !value.isNull { return "The \(attribute) must be a file." }
            return field.rules.contains(.required) ? "The \(attribute) field is required." : nil
        }
        for rule in field.rules {
            switch rule {
            case .file(let kilobytes) where file.bytes.count > kilobytes * 1024:
                return "The \(attribute) must not be greater than \(kilobytes) kilobytes."
            case .image where !file.kind.isImage:
                return "The \(attribute) must be an image (JPEG, PNG, GIF, WebP, AVIF or BMP)."
            default: continue
            }
        }
        return nil
    }

    private static func check(_ value: JSONTree?, _ field: FieldRules) -> String? {
        // Only a refusal needs the name in words.
        var attribute: String { field.name.replacingOccurrences(of: "_", with: " ") }
        let present = value.map { !$0.isNull && $0 != .array([]) } ?? false
        guard present, let value else {
            return field.rules.contains(.required) ? "The \(attribute) field is required." : nil
        }
        let isNumeric = field.rules.contains(.integer) || field.rules.contains(.numeric)
        for rule in field.rules {
            switch rule {
            case .required, .nullable, .file, .image: continue
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
            case .instant:
                if ValidInput.instant(value) == nil { return "The \(attribute) is not a valid date." }
            case .atLeast(let low):
                if let number = ValidInput.number(value), number < Double(low) {
                    return "The \(attribute) must be at least \(low)."
                }
            case .email:
                if let text = value.stringValue, !ContactValueFormats.isEmail(text) {
                    return "The \(attribute) must be a valid email address."
                }
            case .webLink:
                if let text = value.stringValue, !ContactValueFormats.isWebLink(text) {
                    return "The \(attribute) must be a valid URL starting with http:// or https://."
                }
            }
        }
        return nil
    }
}

extension FieldRules.Rule {
    var isFile: Bool { if case .file = self { true } else { false } }
}
