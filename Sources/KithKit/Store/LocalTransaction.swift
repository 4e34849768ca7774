import Foundation
import GRDB
import KithCore

/// Changes made together in one local transaction: each record write and its outbox entry commit
/// together, and the whole transaction commits or rolls back as one. Checked by the entity's
/// declaration before anything is written.
public final class LocalTransaction {
    /// The open database, for app queries inside the transaction.
    public let database: Database
    let storage: RecordStorage
    let userScope: String
    let nowMillis: Int64
    var clock: HybridLogicalClock
    /// When and where this device checks rules (its clock and the person's time zone).
    let context: RuleContext

    init(
        database: Database, storage: RecordStorage, userScope: String, nowMillis: Int64, clock: HybridLogicalClock,
        context: RuleContext
    ) {
        self.database = database
        self.storage = storage
        self.userScope = userScope
        self.nowMillis = nowMillis
        self.clock = clock
        self.context = context
    }

    /// Creates the record or changes the given fields of it. `scope` defaults to the user's own
    /// scope; family entities must name their family's. Returns the record's id.
    @discardableResult
    public func save(_ entity: String, id: UUID = UUID(), fields: [String: JSONTree], scope: String? = nil) throws -> UUID {
        try save(entity, id: id, fields: fields, scope: scope, checkingRules: true)
    }

    /// `checkingRules: false` is for data moving between a device's own stores (adoption): it was
    /// checked when it was written, and the server judges it again on push, where a refusal is
    /// recorded for the person to see, rather than dropped here unseen.
    @discardableResult
    func save(_ entity: String, id: UUID, fields: [String: JSONTree], scope: String?, checkingRules: Bool) throws -> UUID {
        let declaration = try storage.table(entity).declaration
        let existing = try storage.load(entity, id, database)
        if existing?.isDeleted == true {
            throw KithError.invalid(APIErrorDetail(code: "deleted", message: "This record was deleted."))
        }
        if let problem = declaration.problems(in: fields, isCreation: existing == nil).first {
            throw KithError.invalid(problem)
        }
        let scope = try existing?.scope ?? resolveScope(scope, for: declaration)
        let mutation = Mutation(mutationId: UUID(), entity: entity, id: id, scope: scope, op: .upsert, fields: fields, hlc: tick())
        if checkingRules { try check(mutation, existing) }
        try apply(mutation, to: existing)
        return id
    }

    /// Deletes the record, and what goes with it by the entity's rules (a day's items); the
    /// deletion wins over edits made anywhere, before or after.
    public func delete(_ entity: String, id: UUID) throws {
        let declaration = try storage.table(entity).declaration
        let existing = try storage.load(entity, id, database)
        if existing?.isDeleted == true { return }
        let scope = try existing?.scope ?? resolveScope(nil, for: declaration)
        let mutation = Mutation(mutationId: UUID(), entity: entity, id: id, scope: scope, op: .delete, hlc: tick())
        try check(mutation, existing)
        try apply(mutation, to: existing)
        for rule in storage.catalog.rules[entity] ?? [] where !rule.cascadeReads.isEmpty {
            for dependent in rule.cascade(of: mutation, records: try liveRecords(rule.cascadeReads, in: scope)) {
                try delete(dependent.entity, id: dependent.id)
            }
        }
    }

    public func record(_ entity: String, id: UUID) throws -> LocalRecord? {
        try storage.table(entity).load(id, database).map(LocalRecord.init)
    }

    /// Every live record of `entity`.
    public func records(_ entity: String) throws -> [LocalRecord] {
        let table = try storage.table(entity)
        return try Row.fetchAll(database, sql: "SELECT * FROM \(quoted(table.name))").map { LocalRecord(try table.record(from: $0)) }
    }

    /// The entity's rules across records (KithCore), the same the server runs: a refusal throws
    /// before anything is written, so the device never queues what the server would refuse.
    private func check(_ mutation: Mutation, _ existing: SyncRecord?) throws {
        let rules = storage.catalog.rules[mutation.entity] ?? []
        guard !rules.isEmpty else { return }
        let related = try liveRecords(rules.flatMap(\.reads), in: mutation.scope)
        for rule in rules {
            if let problem = rule.problem(with: mutation, current: existing, records: related, context: context) {
                throw KithError.invalid(problem)
            }
        }
    }

    /// The live records of `entities` in `scope`, by entity.
    func liveRecords(_ entities: [String], in scope: String) throws -> [String: [SyncRecord]] {
        var found: [String: [SyncRecord]] = [:]
        for entity in Set(entities) {
            let table = try storage.table(entity)
            found[entity] = try Row.fetchAll(
                database, sql: "SELECT * FROM \(quoted(table.name)) WHERE scope = ?", arguments: [scope]
            ).map(table.record(from:))
        }
        return found
    }

    private func apply(_ mutation: Mutation, to existing: SyncRecord?) throws {
        var record = existing ?? SyncRecord(entity: mutation.entity, id: mutation.id, scope: mutation.scope)
        record.merge(mutation)
        try storage.store(record, database)
        try Outbox.append(mutation, database)
    }

    private func tick() -> HLC { clock.tick(now: nowMillis) }

    private func resolveScope(_ given: String?, for declaration: EntityDeclaration) throws -> String {
        switch declaration.scope {
        case .user:
            if let given, given != userScope {
                throw KithError.invalid(APIErrorDetail(code: "forbidden", message: "This record belongs to another account."))
            }
            return userScope
        case .family:
            guard let given, given.hasPrefix("family:") else {
                throw KithError.invalid(
                    APIErrorDetail(code: "validation_failed", message: "\(declaration.name) records belong to a family: name its scope."))
            }
            return given
        }
    }
}
