import Foundation
import GRDB
import KithCore

/// One account's data on this device (or the anonymous data from before sign-up): a SQLite
/// database (GRDB) with a table per declared entity, the outbox of changes not yet pushed, and the
/// sync state. It works with no network at all; `SyncEngine` moves its changes to and from a server.
public final class LocalStore: Sendable {
    public let catalog: EntityCatalog
    /// `user:<id>` for an account's store; anonymous stores use `LocalStoreDirectory.anonymousScope`.
    public let userScope: String
    /// This device's id: the node of its HLC stamps and the `clientId` of its pushes.
    public let clientId: UUID
    /// Where the database lives; nil when in memory.
    public let url: URL?
    let writer: any DatabaseWriter
    let storage: RecordStorage
    let now: @Sendable () -> Date
    /// The person's time zone: what "today" is for rules about local days.
    public let timeZone: TimeZone
    /// The account's user id, for rules about who may do what; nil in the anonymous store.
    var actor: String? {
        guard userScope.hasPrefix("user:"), userScope != LocalStoreDirectory.anonymousScope else { return nil }
        return String(userScope.dropFirst("user:".count))
    }

    /// For app queries and observations. Entity tables are named after the entity with `_` for `.`.
    public var reader: any DatabaseReader { writer }

    /// Opens the store at `url` (created if missing; WAL, so readers never wait for the writer), or
    /// an in-memory one when `url` is nil.
    public init(
        url: URL?, catalog: EntityCatalog, userScope: String, now: @escaping @Sendable () -> Date = { Date() },
        timeZone: TimeZone = .current
    ) throws {
        self.catalog = catalog
        self.userScope = userScope
        self.url = url
        self.now = now
        self.timeZone = timeZone
        self.storage = RecordStorage(catalog: catalog)
        do {
            writer = try DeviceDatabase.open(at: url, migrator: LocalSchema.migrator())
            let state = try writer.write { db in
                try LocalSchema.createEntityTables(catalog, db)
                let state = try SyncState.loadOrCreate(scope: userScope, db)
                try SyncState.resetCursorIfEntitiesChanged(catalog, db)
                return state
            }
            guard state.scope == userScope else {
                throw KithError.storage("this store holds \(state.scope)'s data, not \(userScope)'s")
            }
            clientId = state.clientId
        } catch let error as KithError {
            throw error
        } catch {
            throw KithError.storage("\(error)")
        }
    }

    // MARK: Writing

    /// Runs `body` as one transaction: all its saves and deletes, with their outbox entries, or none.
    public func write<Result>(_ body: (LocalTransaction) throws -> Result) throws -> Result {
        try storageErrors {
            try writer.write { db in
                let state = try SyncState.load(db)
                let time = now()
                let transaction = LocalTransaction(
                    database: db, storage: storage, userScope: userScope,
                    nowMillis: state?.stampingTime(time) ?? time.epochMillis,
                    clock: state?.clock ?? HybridLogicalClock(node: clientId.lowercased),
                    context: RuleContext(now: time, timeZone: timeZone, actor: actor))
                let result = try body(transaction)
                try SyncState.saveClock(transaction.clock, db)
                return result
            }
        }
    }

    @discardableResult
    public func save(_ entity: String, id: UUID = UUID(), fields: [String: JSONTree], scope: String? = nil) throws
        -> UUID
    {
        try write { try $0.save(entity, id: id, fields: fields, scope: scope) }
    }

    public func delete(_ entity: String, id: UUID) throws {
        try write { try $0.delete(entity, id: id) }
    }

    // MARK: Reading

    public func record(_ entity: String, id: UUID) throws -> LocalRecord? {
        try storageErrors { try writer.read { db in try storage.table(entity).load(id, db).map(LocalRecord.init) } }
    }

    /// Every live record of `entity`.
    public func records(_ entity: String) throws -> [LocalRecord] {
        try storageErrors { try writer.read { db in try Self.records(entity, storage: storage, db) } }
    }

    /// The records of `entity` now and after every change, local or pulled (for UIs).
    public func observeRecords(_ entity: String) -> AsyncValueObservation<[LocalRecord]> {
        let storage = self.storage
        return ValueObservation.tracking { db in try Self.records(entity, storage: storage, db) }.values(in: writer)
    }

    /// Any query's result now and after every change it depends on.
    public func observe<Value: Sendable>(_ query: @escaping @Sendable (Database) throws -> Value)
        -> AsyncValueObservation<Value>
    {
        ValueObservation.tracking(query).values(in: writer)
    }

    /// Several reads as one consistent snapshot (for a store's observable state).
    func read<Result>(_ body: (Database) throws -> Result) throws -> Result {
        try storageErrors { try writer.read(body) }
    }

    func records(_ entity: String, _ db: Database) throws -> [LocalRecord] {
        try Self.records(entity, storage: storage, db)
    }

    func record(_ entity: String, id: UUID, _ db: Database) throws -> LocalRecord? {
        try storage.table(entity).load(id, db).map(LocalRecord.init)
    }

    /// The tables of these entities and the outbox: what a store's observable state follows.
    static func region(of entities: [String]) -> [any DatabaseRegionConvertible] {
        entities.map { Table(EntityTable.tableName($0)) } + [Table("outbox")]
    }

    /// Every live record of the user-scoped entities, oldest first by the stamp of its first write:
    /// on one device a record is always made after those it refers to.
    func recordsInCreationOrder() throws -> [LocalRecord] {
        try storageErrors {
            try writer.read { db in
                var found: [SyncRecord] = []
                for declaration in catalog.declarations where declaration.scope == .user {
                    let table = EntityTable(declaration: declaration)
                    found += try Row.fetchAll(db, sql: "SELECT * FROM \(quoted(table.name))").map(table.record(from:))
                }
                // A live record has at least one stamped field; the fallback only keeps the order total.
                func made(_ record: SyncRecord) -> String { record.stamps.values.min()?.description ?? "" }
                return found.sorted { (made($0), $0.id.uuidString) < (made($1), $1.id.uuidString) }.map(
                    LocalRecord.init)
            }
        }
    }

    static func records(_ entity: String, storage: RecordStorage, _ db: Database) throws -> [LocalRecord] {
        let table = try storage.table(entity)
        return try Row.fetchAll(db, sql: "SELECT * FROM \(quoted(table.name))").map {
            LocalRecord(try table.record(from: $0))
        }
    }

    // MARK: Plumbing

    /// Database failures become `KithError.storage`; other errors (an app's own, thrown inside a
    /// transaction to roll it back) pass through unchanged.
    func storageErrors<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw KithError.storage(error.description)
        }
    }
}
