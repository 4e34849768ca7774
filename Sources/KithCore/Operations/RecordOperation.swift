import Foundation

/// One change a person makes in an app (add a year, log a meal, complete a reminder), defined once
/// and run on both sides: a device applies it to its local store in one transaction, the server
/// applies it again, authoritatively, in one transaction through the sync writer (docs/sync.md,
/// "Operations"). It is pure: from the live records it reads, now and new ids, it decides the
/// record writes, or refuses with a sentence naming the field at fault. Rules across records
/// (`RecordRule`) are not repeated here: whoever applies the writes checks them on every write, and
/// a refusal of one write refuses the whole operation.
public struct RecordOperation<Output: Sendable>: Sendable {
    /// A stable name ("outreach.addYear"): part of what a write key promises (docs/sync.md).
    public let name: String
    /// Where it writes: the person's own scope, or a family's.
    public let scope: OperationScope
    /// What it reads of the scope before it decides: every live record of some entities, only
    /// named records of others (a delivery tick reads its one person, not the year's thousands).
    public let reads: [OperationRead]
    let body: @Sendable (inout OperationDraft) throws(APIErrorDetail) -> Output

    /// An operation that reads every live record of `reads`.
    public init(
        _ name: String, scope: OperationScope = .own, reads: [EntityDeclaration],
        _ body: @escaping @Sendable (inout OperationDraft) throws(APIErrorDetail) -> Output
    ) {
        self.init(name, scope: scope, reading: reads.map(OperationRead.all), body)
    }

    /// An operation that reads what `reading` names.
    public init(
        _ name: String, scope: OperationScope = .own, reading: [OperationRead],
        _ body: @escaping @Sendable (inout OperationDraft) throws(APIErrorDetail) -> Output
    ) {
        self.name = name
        self.scope = scope
        self.reads = reading
        self.body = body
    }

    /// The entities it reads whole.
    public var wholeReads: Set<String> { Set(reads.filter { $0.ids == nil }.map(\.entity)) }

    /// The records it reads one by one in `scope`, by entity (an entity it also reads whole is left
    /// out: all of it is read anyway).
    public func recordReads(in scope: String) -> [String: Set<UUID>] {
        let whole = wholeReads
        var found: [String: Set<UUID>] = [:]
        for read in reads where !whole.contains(read.entity) {
            if let ids = read.ids { found[read.entity, default: []].formUnion(ids(scope)) }
        }
        return found
    }

    /// Runs the operation over `draft` (which holds the records it reads): its output, with the
    /// writes it decided left in `draft.writes`.
    public func plan(_ draft: inout OperationDraft) throws(APIErrorDetail) -> Output {
        try body(&draft)
    }

    /// The draft it decides over in `scope`, from `found`: what storage holds of the entities it
    /// reads whole and of the records it names. Everything else in `found` (deleted records, other
    /// scopes', records it did not name) is left out, so every side gives it exactly its reads.
    public func draft(
        found: [SyncRecord], scope: String, now: Date, actor: String?, timeZone: TimeZone? = nil,
        newID: @escaping @Sendable () -> UUID
    ) -> OperationDraft {
        let whole = wholeReads
        let partial = recordReads(in: scope)
        var records: [String: [UUID: [String: JSONTree]]] = [:]
        for entity in whole.union(partial.keys) { records[entity] = [:] }
        for record in found where !record.isDeleted && record.scope == scope {
            guard whole.contains(record.entity) || partial[record.entity]?.contains(record.id) == true else { continue }
            records[record.entity]?[record.id] = record.fields
        }
        return OperationDraft(
            records: records, partial: partial, scope: scope, now: now, actor: actor, timeZone: timeZone, newID: newID)
    }

    /// The same operation with its output turned into another (what a surface needs of it).
    public func map<Other: Sendable>(_ transform: @escaping @Sendable (Output) -> Other) -> RecordOperation<Other> {
        let body = self.body
        return RecordOperation<Other>(name, scope: scope, reading: reads) { (draft) throws(APIErrorDetail) in
            transform(try body(&draft))
        }
    }
}

/// What an operation reads of one entity in its scope: every live record, or only some by id (ids
/// that may derive from the scope, as a Nutrition day's does). A record that does not exist, or is
/// deleted, is simply not there.
public struct OperationRead: Sendable {
    public let entity: String
    /// nil: every live record of the entity; else the ids to read, given the scope.
    public let ids: (@Sendable (_ scope: String) -> Set<UUID>)?

    /// Every live record of `entity`.
    public static func all(_ entity: EntityDeclaration) -> OperationRead {
        OperationRead(entity: entity.name, ids: nil)
    }

    /// Only these records of `entity`.
    public static func only(_ entity: EntityDeclaration, _ ids: UUID...) -> OperationRead {
        let wanted = Set(ids)
        return OperationRead(entity: entity.name, ids: { _ in wanted })
    }

    /// Only the records of `entity` whose ids `ids` derives from the scope.
    public static func only(
        _ entity: EntityDeclaration, derived ids: @escaping @Sendable (_ scope: String) -> Set<UUID>
    )
        -> OperationRead
    {
        OperationRead(entity: entity.name, ids: ids)
    }
}

/// The scope an operation writes.
public enum OperationScope: Sendable, Equatable {
    /// The signed-in person's own records (`user:<id>`).
    case own
    /// A shared scope the person belongs to (`family:<id>`).
    case shared(String)

    /// The scope's name for the person whose own scope is `userScope`.
    public func name(userScope: String) -> String {
        switch self {
        case .own: userScope
        case .shared(let scope): scope
        }
    }
}

/// One write an operation decided: the fields it sets on a record (created if new), or the
/// record's deletion (what goes with it follows by the entity's rules).
public struct RecordWrite: Sendable, Equatable {
    public enum Change: Sendable, Equatable {
        case upsert([String: JSONTree])
        case delete
    }

    public let entity: String
    public let id: UUID
    public let change: Change

    public init(entity: String, id: UUID, change: Change) {
        self.entity = entity
        self.id = id
        self.change = change
    }
}
