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
    /// Only the server's own bookkeeping (a family's member list, mirrored from its membership
    /// table): refused on every push.
    case server
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

    /// The declaration of `field`. A field the caller names that the entity lacks is a mistake in
    /// the caller (a form, a wording), found by its first use in a test.
    public func declaration(of field: String) -> FieldDeclaration {
        guard let declaration = fields.first(where: { $0.name == field }) else {
            preconditionFailure("\(name) declares no field \(field)")
        }
        return declaration
    }

    /// The most characters a text field takes (a form's `maxlength`, a sentence's limit).
    public func maxLength(of field: String) -> Int {
        guard case .string(let maxLength, _) = declaration(of: field).type else {
            preconditionFailure("\(name).\(field) is not text")
        }
        return maxLength
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

    /// 50000 rather than 50000.0, 0.5 as it is.
    private static func text(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    private static func problem(with value: JSONTree, for field: FieldDeclaration) -> APIErrorDetail? {
        let name = field.name
        func refuse(_ message: String) -> APIErrorDetail { APIErrorDetail(.validationFailed, message, field: name) }
        if value == .null {
            return field.optional ? nil : refuse("\(name) is required.")
        }
        switch (field.type, value) {
        case (.string(let maxLength, let allowEmpty), .string(let text)):
            let trimmed = text.trimmedWhitespace
            if trimmed.isEmpty && !allowEmpty && !field.optional { return refuse("\(name) is required.") }
            if trimmed.unicodeScalars.count > maxLength {
                return refuse("\(name) must be at most \(maxLength) characters.")
            }
            if text.unicodeScalars.contains(where: { $0.value == 0 }) {
                return refuse("\(name) contains a NUL character.")
            }
            return nil
        case (.integer(let range), .int(let integer)):
            return range.contains(integer)
                ? nil : refuse("\(name) must be between \(range.lowerBound) and \(range.upperBound).")
        case (.integer(let range), .double(let number)):
            guard number == number.rounded(), let integer = Int64(exactly: number) else {
                return refuse("\(name) must be a whole number.")
            }
            return range.contains(integer)
                ? nil : refuse("\(name) must be between \(range.lowerBound) and \(range.upperBound).")
        case (.number(let range), .int), (.number(let range), .double):
            let number = value.doubleValue ?? .nan
            return number.isFinite && range.contains(number)
                ? nil
                : refuse("\(name) must be between \(Self.text(range.lowerBound)) and \(Self.text(range.upperBound)).")
        case (.bool, .bool):
            return nil
        case (.timestamp, .string(let text)):
            return WireCoding.parseTimestamp(text) == nil ? refuse("\(name) must be an ISO 8601 timestamp.") : nil
        case (.uuid, .string(let text)):
            return UUID(text: text) == nil ? refuse("\(name) must be an id (UUID).") : nil
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
    /// Entities whose ids are derived, by entity.
    public let identities: [String: DerivedIdentity]

    public init(_ declarations: [EntityDeclaration], rules: [any RecordRule] = [], identities: [DerivedIdentity] = []) {
        entities = Dictionary(declarations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.rules = Dictionary(grouping: rules, by: \.entity)
        self.identities = Dictionary(identities.map { ($0.entity, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public subscript(name: String) -> EntityDeclaration? { entities[name] }

    /// Every declaration, by name.
    public var declarations: [EntityDeclaration] { entities.values.sorted { $0.name < $1.name } }
}

/// An entity whose record ids are derived from the scope (and fields), so every device of an
/// account writes the same record: the account's one preferences or goal record, one day of a log.
public struct DerivedIdentity: Sendable {
    public let entity: String
    /// The id a record with these fields has in `scope`; nil when the fields don't say.
    public let id: @Sendable (_ scope: String, _ fields: [String: JSONTree]) -> UUID?

    public init(entity: String, id: @escaping @Sendable (_ scope: String, _ fields: [String: JSONTree]) -> UUID?) {
        self.entity = entity
        self.id = id
    }
}

extension EntityCatalog {
    /// The records as they are in another scope (data made before sign-up moving into the account):
    /// derived ids are derived anew for `scope`, and every id field that pointed at a moved record
    /// points at its new id. A day that exists in both places thus becomes one record, and its
    /// items the union of both.
    public func moving(_ records: [SyncRecord], to scope: String) -> [SyncRecord] {
        var renamed: [String: String] = [:]
        for record in records {
            guard let identity = identities[record.entity], let id = identity.id(scope, record.fields) else { continue }
            renamed[record.id.lowercased] = id.lowercased
        }
        return records.map { record in
            var moved = record
            moved.scope = scope
            if let id = renamed[record.id.lowercased].flatMap(UUID.init(text:)) { moved.id = id }
            for field in self[record.entity]?.fields ?? [] where field.type == .uuid {
                if let target = record.fields[field.name]?.stringValue?.lowercased(), let new = renamed[target] {
                    moved.fields[field.name] = .string(new)
                }
            }
            return moved
        }
    }
}
