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
    /// The entities whose live records (in `scope`) it reads.
    public let reads: Set<String>
    let body: @Sendable (inout OperationDraft) throws(APIErrorDetail) -> Output

    public init(
        _ name: String, scope: OperationScope = .own, reads: [EntityDeclaration],
        _ body: @escaping @Sendable (inout OperationDraft) throws(APIErrorDetail) -> Output
    ) {
        self.name = name
        self.scope = scope
        self.reads = Set(reads.map(\.name))
        self.body = body
    }

    /// Runs the operation over `draft` (which holds the records it reads): its output, with the
    /// writes it decided left in `draft.writes`.
    public func plan(_ draft: inout OperationDraft) throws(APIErrorDetail) -> Output {
        try body(&draft)
    }

    /// The same operation with its output turned into another (what a surface needs of it).
    public func map<Other: Sendable>(_ transform: @escaping @Sendable (Output) -> Other) -> RecordOperation<Other> {
        let body = self.body
        return RecordOperation<Other>(name, scope: scope, readNames: reads) { (draft) throws(APIErrorDetail) in
            transform(try body(&draft))
        }
    }

    init(
        _ name: String, scope: OperationScope, readNames: Set<String>,
        _ body: @escaping @Sendable (inout OperationDraft) throws(APIErrorDetail) -> Output
    ) {
        self.name = name
        self.scope = scope
        self.reads = readNames
        self.body = body
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

