import Foundation

extension RecordOperation {
    /// Whether `actor` may do this now, asked of the same rules that judge it when it is done:
    /// the operation planned over `records` (all in `scope`), then each of its writes, in order,
    /// judged by the rule of its entity as the server and devices judge a push. The refusal, or
    /// nil when every write passes. Nothing is written: a page asks this to offer only the actions
    /// the rules allow, without a second copy of them.
    public func trial(
        over records: [SyncRecord], scope: String, now: Date, actor: String, rules: [any RecordRule]
    ) -> APIErrorDetail? {
        var draft = draft(found: records, scope: scope, now: now, actor: actor, newID: { UUID() })
        do throws(APIErrorDetail) {
            _ = try plan(&draft)
        } catch {
            return error
        }
        var live = Dictionary(grouping: records.filter { !$0.isDeleted && $0.scope == scope }, by: \.entity)
            .mapValues { Dictionary($0.map { ($0.id, $0) }) { first, _ in first } }
        let context = RuleContext(now: now, actor: actor)
        for write in draft.writes {
            let fields: [String: JSONTree] = if case .upsert(let given) = write.change { given } else { [:] }
            let mutation = Mutation(
                mutationId: UUID(), entity: write.entity, id: write.id, scope: scope,
                op: write.change == .delete ? .delete : .upsert, fields: fields,
                hlc: HLC(wallMillis: now.epochMillis, counter: 0, node: "trial"))
            let current = live[write.entity]?[write.id]
            for rule in rules where rule.entity == write.entity {
                let read = Dictionary((rule.reads + rule.cascadeReads).map { ($0, Array((live[$0] ?? [:]).values)) }) {
                    first, _ in first
                }
                if let problem = rule.problem(with: mutation, current: current, records: read, context: context) {
                    return problem
                }
            }
            switch write.change {
            case .delete:
                live[write.entity]?[write.id] = nil
            case .upsert(let fields):
                var record = current ?? SyncRecord(entity: write.entity, id: write.id, scope: scope)
                record.fields.merge(fields) { _, new in new }
                live[write.entity, default: [:]][write.id] = record
            }
        }
        return nil
    }
}
