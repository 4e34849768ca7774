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

    init(database: Database, storage: RecordStorage, userScope: String, nowMillis: Int64, clock: HybridLogicalClock) {
        self.database = database
        self.storage = storage
        self.userScope = userScope
        self.nowMillis = nowMillis
        self.clock = clock
    }

    /// Creates the record or changes the given fields of it. `scope` defaults to the user's own
    /// scope; family entities must name their family's. Returns the record's id.
    @discardableResult
    public func save(_ entity: String, id: UUID = UUID(), fields: [String: JSONTree], scope: String? = nil) throws -> UUID {
        let declaration = try storage.table(entity).declaration
        let existing = try storage.load(entity, id, database)
        if existing?.isDeleted == true {
            throw KithError.invalid(APIErrorDetail(code: "deleted", message: "This record was deleted."))
        }
        if let problem = declaration.problems(in: fields, isCreation: existing == nil).first {
            throw KithError.invalid(problem)
        }
        let scope = try existing?.scope ?? resolveScope(scope, for: declaration)
        try apply(Mutation(mutationId: UUID(), entity: entity, id: id, scope: scope, op: .upsert, fields: fields, hlc: tick()), to: existing)
        return id
    }

    /// Deletes the record; the deletion wins over edits made anywhere, before or after.
    public func delete(_ entity: String, id: UUID) throws {
        let declaration = try storage.table(entity).declaration
        let existing = try storage.load(entity, id, database)
        if existing?.isDeleted == true { return }
        let scope = try existing?.scope ?? resolveScope(nil, for: declaration)
        try apply(Mutation(mutationId: UUID(), entity: entity, id: id, scope: scope, op: .delete, hlc: tick()), to: existing)
    }

    public func record(_ entity: String, id: UUID) throws -> LocalRecord? {
        try storage.table(entity).load(id, database).map(LocalRecord.init)
    }

    /// Every live record of `entity`.
    public func records(_ entity: String) throws -> [LocalRecord] {
        let table = try storage.table(entity)
        return try Row.fetchAll(database, sql: "SELECT * FROM \(quoted(table.name))").map { LocalRecord(try table.record(from: $0)) }
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
