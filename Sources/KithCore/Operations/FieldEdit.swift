import Foundation

/// A field a person set, with what they saw there when they set it (docs/sync.md, "A write says
/// what it saw"). A form sends every field it shows; only the ones the person changed are written,
/// so a field another tab or device changed meanwhile is kept. Where both changed the same field,
/// the later change wins and `ReplacedValue` says what it replaced.
public struct FieldEdit: Sendable, Equatable {
    public let field: String
    /// What the writer saw in the field; nil when it does not say (a device's call, a script):
    /// then the value is written whatever the field holds.
    public let seen: JSONTree?
    public let value: JSONTree

    public init(_ field: String, seen: JSONTree?, value: JSONTree) {
        self.field = field
        self.seen = seen
        self.value = value
    }

    /// A text field: `seen` nil when not known.
    public init(_ field: String, seen: String?, value: String) {
        self.init(field, seen: seen.map(JSONTree.string), value: .string(value))
    }
}

/// A value another writer had put in a field, which this change replaced.
public struct ReplacedValue: Sendable, Equatable, Codable {
    public let field: String
    /// What the other writer had put there (after the person loaded the page).
    public let theirs: JSONTree
    /// What this change put there instead.
    public let yours: JSONTree

    public init(field: String, theirs: JSONTree, yours: JSONTree) {
        self.field = field
        self.theirs = theirs
        self.yours = yours
    }
}

extension OperationDraft {
    /// Writes the fields of `edits` the person changed onto record `id` (which must exist): what
    /// they replaced that someone else had changed since they saw it. A field they left as they
    /// saw it is not written, so another writer's change to it stands.
    public mutating func edit(_ entity: EntityDeclaration, _ id: UUID, _ edits: [FieldEdit], what: String)
        throws(APIErrorDetail) -> [ReplacedValue]
    {
        let stored = try existing(entity, id, what: what)
        var fields: [String: JSONTree] = [:]
        var replaced: [ReplacedValue] = []
        for edit in edits {
            let current = stored[edit.field] ?? .null
            if let seen = edit.seen {
                guard edit.value != seen else { continue }
                if current != seen && current != edit.value {
                    replaced.append(ReplacedValue(field: edit.field, theirs: current, yours: edit.value))
                }
            }
            if current != edit.value { fields[edit.field] = edit.value }
        }
        upsert(entity, id, fields)
        return replaced
    }
}
