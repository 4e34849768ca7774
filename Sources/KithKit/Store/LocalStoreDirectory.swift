import Foundation
import GRDB
import KithCore

/// Where a device keeps its local stores: one database per account that signed in here
/// (`user-<id>.sqlite`) and one for data made before any sign-up (`anonymous.sqlite`). Signing out
/// closes an account's store without deleting it (docs/sync.md): the next account
/// opens its own file and never reads it. Deleting the account deletes the file.
public struct LocalStoreDirectory: Sendable {
    public let url: URL
    public let catalog: EntityCatalog
    let now: @Sendable () -> Date
    let timeZone: TimeZone

    /// The scope of records made before sign-up; adoption moves them to the new account's scope.
    public static let anonymousScope = "user:anonymous"

    public init(
        url: URL, catalog: EntityCatalog = .kith, now: @escaping @Sendable () -> Date = { Date() },
        timeZone: TimeZone = .current
    ) {
        self.url = url
        self.catalog = catalog
        self.now = now
        self.timeZone = timeZone
    }

    public func store(forUser id: UUID) throws -> LocalStore {
        try LocalStore(url: file(forUser: id), catalog: catalog, userScope: "user:\(id.lowercased)", now: now, timeZone: timeZone)
    }

    public func anonymousStore() throws -> LocalStore {
        try LocalStore(url: anonymousFile, catalog: catalog, userScope: Self.anonymousScope, now: now, timeZone: timeZone)
    }

    /// How many records the anonymous store holds (0 when there is none).
    public func anonymousRecordCount() throws -> Int {
        guard FileManager.default.fileExists(atPath: anonymousFile.path) else { return 0 }
        let store = try anonymousStore()
        return try catalog.declarations.reduce(0) { $0 + (try store.records($1.name).count) }
    }

    /// Moves the data made before sign-up into the new account's store: every
    /// record is written there as the account's own, in the order they were made (a year before
    /// the people in it, as the rules expect), queued for upload in the same transaction, and only
    /// then is the anonymous store removed. Ids derived from the account (a day of the nutrition
    /// log, the goal) are derived anew, so a day the account already has becomes one day with the
    /// items of both. Records are not judged again here: the server judges them on upload, and a
    /// refusal (a day that left the retention window) is recorded among the rejections the person
    /// sees, never dropped unseen. If anything fails the anonymous data stays and adoption can run
    /// again; records keep their ids, so a second run changes nothing more. Returns how many records were adopted; the
    /// engine's `pushed` events report the upload (`AnonymousDataMove` follows it to the end).
    @discardableResult
    public func adoptAnonymousData(into store: LocalStore) throws -> Int {
        guard FileManager.default.fileExists(atPath: anonymousFile.path) else { return 0 }
        // Read, then let the anonymous database close before its files are removed.
        let records: [LocalRecord] = try {
            let anonymous = try anonymousStore()
            return try anonymous.recordsInCreationOrder()
        }()
        let moved = catalog.moving(records.map(\.syncRecord), to: store.userScope)
        try store.write { transaction in
            for record in moved {
                try transaction.save(
                    record.entity, id: record.id, fields: record.fields.filter { $0.value != .null }, scope: nil,
                    checkingRules: false)
            }
        }
        try Self.removeDatabase(at: anonymousFile)
        return moved.count
    }

    /// Deletes an account's local data (after the account itself was deleted).
    public func removeData(forUser id: UUID) throws {
        try Self.removeDatabase(at: file(forUser: id))
    }

    func file(forUser id: UUID) -> URL { url.appendingPathComponent("user-\(id.lowercased).sqlite") }
    var anonymousFile: URL { url.appendingPathComponent("anonymous.sqlite") }

    /// Removes a database with its WAL and shared-memory files.
    static func removeDatabase(at file: URL) throws {
        for suffix in ["", "-wal", "-shm"] {
            let path = file.path + suffix
            guard FileManager.default.fileExists(atPath: path) else { continue }
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw KithError.storage("cannot remove \(path): \(error.localizedDescription)")
            }
        }
    }
}
