import Foundation

/// What an operation works on while it decides: the live records it reads (each read sees the
/// writes made before it), when it runs, who runs it, new ids, and the writes so far.
public struct OperationDraft: Sendable {
    /// When the change is made (the server's clock on the server, the device's on a device).
    public let now: Date
    /// The scope it writes.
    public let scope: String
    /// The person making the change (lower-case user id), when known.
    public let actor: String?
    /// The person's time zone when the writer knows it (a device), else nil.
    public let timeZone: TimeZone?
    private let makeID: @Sendable () -> UUID
    /// Live records by entity, then id: their fields as they stand with this draft's writes.
    private var records: [String: [UUID: [String: JSONTree]]]
    /// The entities read record by record: the ids read (found or not) and written.
    private var partial: [String: Set<UUID>]
    /// The writes decided so far, in order.
    public private(set) var writes: [RecordWrite] = []

    /// `records`: the live records the operation reads in `scope`, by entity (an entity read and
    /// found empty is there with none). `partial` names the entities it read only some records of,
    /// with the ids it asked for (`records` holds those that exist); every other entity in
    /// `records` was read whole. `RecordOperation.draft(found:…)` makes one from what storage found.
    public init(
        records: [String: [UUID: [String: JSONTree]]], partial: [String: Set<UUID>] = [:], scope: String, now: Date,
        actor: String? = nil, timeZone: TimeZone? = nil, newID: @escaping @Sendable () -> UUID
    ) {
        self.records = records
        self.partial = partial
        self.scope = scope
        self.now = now
        self.actor = actor
        self.timeZone = timeZone
        self.makeID = newID
    }

    /// A new record id.
    public func newID() -> UUID { makeID() }

    /// The live records of `entity` (which the operation must read whole), by id.
    public func records(_ entity: EntityDeclaration) -> [UUID: [String: JSONTree]] {
        precondition(records[entity.name] != nil, "an operation read \(entity.name) without listing it in its reads")
        precondition(
            partial[entity.name] == nil, "an operation read all of \(entity.name) but listed only some records")
        return records[entity.name] ?? [:]
    }

    /// The live records of `entities` as synced records (fields only, no stamps): what an app's
    /// book is built from.
    public func syncRecords(_ entities: [EntityDeclaration]) -> [SyncRecord] {
        entities.flatMap { entity in
            records(entity).map { id, fields in
                var record = SyncRecord(entity: entity.name, id: id, scope: scope)
                record.fields = fields
                return record
            }
        }
    }

    /// The live record `id` of `entity`, or nil.
    public func record(_ entity: EntityDeclaration, _ id: UUID) -> [String: JSONTree]? {
        precondition(records[entity.name] != nil, "an operation read \(entity.name) without listing it in its reads")
        precondition(
            partial[entity.name].map { $0.contains(id) } ?? true,
            "an operation read \(entity.name) \(id.lowercased) without listing it in its reads")
        return records[entity.name]?[id]
    }

    /// The live record `id` of `entity`, or a refusal saying `what` does not exist.
    public func existing(_ entity: EntityDeclaration, _ id: UUID, what: String) throws(APIErrorDetail)
        -> [String: JSONTree]
    {
        guard let fields = record(entity, id) else { throw OperationRefusal.notFound(what) }
        return fields
    }

    /// Sets `fields` on record `id` of `entity`, creating it if it does not exist.
    public mutating func upsert(_ entity: EntityDeclaration, _ id: UUID, _ fields: [String: JSONTree]) {
        guard !fields.isEmpty else { return }
        writes.append(RecordWrite(entity: entity.name, id: id, change: .upsert(fields)))
        if records[entity.name] != nil { records[entity.name, default: [:]][id, default: [:]].merge(fields) { $1 } }
        partial[entity.name]?.insert(id)
    }

    /// Creates a record of `entity` with `fields`: its new id.
    public mutating func create(_ entity: EntityDeclaration, _ fields: [String: JSONTree]) -> UUID {
        let id = newID()
        upsert(entity, id, fields)
        return id
    }

    /// Deletes record `id` of `entity`.
    public mutating func delete(_ entity: EntityDeclaration, _ id: UUID) {
        writes.append(RecordWrite(entity: entity.name, id: id, change: .delete))
        records[entity.name]?[id] = nil
    }
}

/// Refusals every app's operations share.
public enum OperationRefusal {
    /// `what` ("That year") does not exist, or is not the person's to see.
    public static func notFound(_ what: String) -> APIErrorDetail {
        APIErrorDetail(.notFound, "\(what) does not exist (it may have been deleted).")
    }
}
