import Foundation
import KithCore

/// Runs operations the way both sides do, over records held in memory: reads see what earlier
/// operations wrote. What a test asserts is the writes an operation decides and its output.
struct OperationBench {
    var scope = "user:00000000-0000-0000-0000-00000000000a"
    var actor: String? = "00000000-0000-0000-0000-00000000000a"
    var now = Date(timeIntervalSince1970: 1_795_000_000)
    /// Live records by entity, then id.
    var records: [String: [UUID: [String: JSONTree]]] = [:]
    private var next = 0

    /// Runs `operation`: its output and its writes, applied to `records` when it was not refused.
    mutating func run<Output>(_ operation: RecordOperation<Output>) throws(APIErrorDetail) -> (Output, [RecordWrite]) {
        let scope = operation.scope.name(userScope: self.scope)
        // Everything held, as storage would hand it over: the operation's draft keeps what it names.
        let found = records.flatMap { entity, byID in
            byID.map { id, fields in
                var record = SyncRecord(entity: entity, id: id, scope: scope)
                record.fields = fields
                return record
            }
        }
        let counter = IDCounter(start: next)
        var draft = operation.draft(found: found, scope: scope, now: now, actor: actor, newID: counter.next)
        let output = try operation.plan(&draft)
        next = counter.value
        for write in draft.writes {
            switch write.change {
            case .upsert(let fields): records[write.entity, default: [:]][write.id, default: [:]].merge(fields) { $1 }
            case .delete: records[write.entity]?[write.id] = nil
            }
        }
        return (output, draft.writes)
    }

    func fields(_ entity: EntityDeclaration) -> [[String: JSONTree]] { Array((records[entity.name] ?? [:]).values) }

    /// The ids of the live records of `entity`, in a fixed order.
    func ids(_ entity: EntityDeclaration) -> [UUID] {
        (records[entity.name] ?? [:]).keys.sorted { $0.uuidString < $1.uuidString }
    }
}

/// Sequential ids (…0001, …0002), so a test knows what was made.
private final class IDCounter: @unchecked Sendable {
    private(set) var value: Int
    init(start: Int) { value = start }
    @Sendable func next() -> UUID {
        value += 1
        return UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", value))!
    }
}

extension OperationBench {
    /// Every record written so far, as a book reads them.
    var syncRecords: [SyncRecord] {
        records.flatMap { entity, byID in
            byID.map { id, fields in
                var record = SyncRecord(entity: entity, id: id, scope: scope)
                record.fields = fields
                return record
            }
        }
    }

    /// Later operations run `seconds` later.
    mutating func advance(seconds: Double) { now = now.addingTimeInterval(seconds) }
}
