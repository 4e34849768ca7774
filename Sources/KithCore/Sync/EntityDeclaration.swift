import Foundation

/// Whose a record is: one user's, or a family's (shared by its members).
public enum ScopeKind: String, Sendable, Codable, Hashable {
    case user
    case family
}

/// The type and limits of one synced field. Checked by server and devices alike.
public enum FieldType: Sendable, Hashable {
    /// Text, trimmed before the length check; `maxLength` in Unicode code points (a grapheme can
    /// carry any number of combining marks, so counting graphemes bounds nothing).
    case string(maxLength: Int, allowEmpty: Bool = false)
    case integer(ClosedRange<Int64>)
    case number(ClosedRange<Double>)
    case bool
    /// An ISO 8601 timestamp in the wire form.
    case timestamp
    /// A reference to another record.
    case uuid
    /// A calendar day as the person saw it, `yyyy-MM-dd` (years 1-9999), with no time zone.
    case localDate
    /// One of a few fixed words (`search`, `manual`, `meal`).
    case choice([String])
}

public struct FieldDeclaration: Sendable, Hashable {
    public var name: String
    public var type: FieldType
    public var optional: Bool

    public init(_ name: String, _ type: FieldType, optional: Bool = false) {
        self.name = name
        self.type = type
        self.optional = optional
    }
}

/// Who may write records of an entity within a scope they can read. Family roles arrive with the
/// Family app; the rule is declared here so the server checks it in one place.
public enum WriteRule: Sendable, Hashable {
    /// Anyone who can read the scope.
    case anyMember
    /// Only members whose role is one of these (for example "parent").
    case roles(Set<String>)
}

/// An entity type, declared once and used by the server and by every device: adding an entity to
/// an app is declaring it, not writing sync code.
public struct EntityDeclaration: Sendable, Hashable {
    public var name: String
    public var scope: ScopeKind
    public var fields: [FieldDeclaration]
    public var writeRule: WriteRule

    public init(name: String, scope: ScopeKind, fields: [FieldDeclaration], writeRule: WriteRule = .anyMember) {
        self.name = name
        self.scope = scope
        self.fields = fields
        self.writeRule = writeRule
    }

    /// Problems with the fields of an upsert; empty when it may be applied. `isCreation` asks for
    /// every required field; a later upsert may carry only the fields it changes.
    public func problems(in values: [String: JSONTree], isCreation: Bool) -> [APIErrorDetail] {
        var problems: [APIErrorDetail] = []
        let declared = Dictionary(uniqueKeysWithValues: fields.map { ($0.name, $0) })
        for name in values.keys.sorted() where declared[name] == nil {
            problems.append(APIErrorDetail(.validationFailed, "\(self.name) has no field \"\(name)\".", field: name))
        }
        for field in fields {
            guard let value = values[field.name] else {
                if isCreation && !field.optional {
                    problems.append(APIErrorDetail(.validationFailed, "\(field.name) is required.", field: field.name))
                }
                continue
            }
            if let problem = Self.problem(with: value, for: field) { problems.append(problem) }
        }
        return problems
    }

    /// A limit as a person writes it: "50000", not "50000.0".
    private static func written(_ bound: Double) -> String {
        bound == bound.rounded() && abs(bound) < 1e15 ? String(Int64(bound)) : String(bound)
    }

    private static func problem(with value: JSONTree, for field: FieldDeclaration) -> APIErrorDetail? {
        let name = field.name
        func refuse(_ message: String) -> APIErrorDetail { APIErrorDetail(.validationFailed, message, field: name) }
        if value == .null {
            return field.optional ? nil : refuse("\(name) is required.")
        }
        switch (field.type, value) {
        case (.string(let maxLength, let allowEmpty), .string(let text)):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty && !allowEmpty && !field.optional { return refuse("\(name) is required.") }
            if trimmed.unicodeScalars.count > maxLength {
                return refuse("\(name) must be at most \(maxLength) characters.")
            }
            if text.unicodeScalars.contains(where: { $0.value == 0 }) { return refuse("\(name) contains a NUL character.") }
            return nil
        case (.integer(let range), .int(let integer)):
            return range.contains(integer) ? nil : refuse("\(name) must be between \(range.lowerBound) and \(range.upperBound).")
        case (.integer(let range), .double(let number)):
            guard number == number.rounded(), let integer = Int64(exactly: number) else {
                return refuse("\(name) must be a whole number.")
            }
            return range.contains(integer) ? nil : refuse("\(name) must be between \(range.lowerBound) and \(range.upperBound).")
        case (.number(let range), .int), (.number(let range), .double):
            let number = value.doubleValue ?? .nan
            return number.isFinite && range.contains(number)
                ? nil : refuse("\(name) must be between \(Self.written(range.lowerBound)) and \(Self.written(range.upperBound)).")
        case (.bool, .bool):
            return nil
        case (.timestamp, .string(let text)):
            return WireCoding.parseTimestamp(text) == nil ? refuse("\(name) must be an ISO 8601 timestamp.") : nil
        case (.uuid, .string(let text)):
            return UUID(uuidString: text) == nil ? refuse("\(name) must be an id (UUID).") : nil
        case (.localDate, .string(let text)):
            return LocalDate(text) == nil ? refuse("\(name) must be a date (yyyy-MM-dd).") : nil
        case (.choice(let words), .string(let text)):
            return words.contains(text) ? nil : refuse("\(name) must be one of \(words.joined(separator: ", ")).")
        default:
            return refuse("\(name) has the wrong type.")
        }
    }
}

/// Every entity the system knows, by name. Apps add theirs here as they arrive.
public struct EntityCatalog: Sendable {
    public let entities: [String: EntityDeclaration]
    /// Rules across records, by the entity they check.
    public let rules: [String: [any RecordRule]]

    public init(_ declarations: [EntityDeclaration], rules: [any RecordRule] = []) {
        entities = Dictionary(declarations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.rules = Dictionary(grouping: rules, by: \.entity)
    }

    public subscript(name: String) -> EntityDeclaration? { entities[name] }

    /// Every declaration, by name.
    public var declarations: [EntityDeclaration] { entities.values.sorted { $0.name < $1.name } }
}
