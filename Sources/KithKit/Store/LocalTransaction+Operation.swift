import Foundation
import KithCore

extension LocalTransaction {
    /// Applies one of an app's operations (KithCore, docs/sync.md "Operations") in this
    /// transaction: it reads the live records it names in its scope, decides, and each of its
    /// writes is saved with its outbox entry and checked by the entity's rules. A refusal, the
    /// operation's or a rule's, throws, and the transaction writes nothing.
    public func apply<Output>(_ operation: RecordOperation<Output>) throws -> Output {
        let scope = operation.scope.name(userScope: userScope)
        var found = try liveRecords(Array(operation.wholeReads), in: scope).values.flatMap { $0 }
        for (entity, ids) in operation.recordReads(in: scope) {
            let table = try storage.table(entity)
            for id in ids { if let record = try table.load(id, database) { found.append(record) } }
        }
        var draft = operation.draft(
            found: found, scope: scope, now: context.now, actor: context.actor, timeZone: context.timeZone,
            newID: { UUID() })
        let output: Output
        do {
            output = try operation.plan(&draft)
        } catch {
            throw KithError.invalid(error)
        }
        for write in draft.writes {
            switch write.change {
            case .upsert(let fields): try save(write.entity, id: write.id, fields: fields, scope: scope)
            case .delete: try delete(write.entity, id: write.id)
            }
        }
        return output
    }
}
