import Foundation

/// One change a device wants applied (docs/sync.md, push).
public struct Mutation: Hashable, Sendable, Codable {
    public enum Operation: String, Hashable, Sendable, Codable { case upsert, delete }

    @LowercaseUUID public var mutationId: UUID
    public var entity: String
    @LowercaseUUID public var id: UUID
    public var scope: String
    public var op: Operation
    public var fields: [String: JSONTree]
    public var hlc: HLC

    public init(
        mutationId: UUID, entity: String, id: UUID, scope: String, op: Operation, fields: [String: JSONTree] = [:],
        hlc: HLC
    ) {
        self.mutationId = mutationId
        self.entity = entity
        self.id = id
        self.scope = scope
        self.op = op
        self.fields = fields
        self.hlc = hlc
    }

    enum CodingKeys: String, CodingKey { case mutationId, entity, id, scope, op, fields, hlc }

    /// `fields` may be left out (a delete has none to carry), as docs/sync.md allows.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        _mutationId = try container.decode(LowercaseUUID.self, forKey: .mutationId)
        entity = try container.decode(String.self, forKey: .entity)
        _id = try container.decode(LowercaseUUID.self, forKey: .id)
        scope = try container.decode(String.self, forKey: .scope)
        op = try container.decode(Operation.self, forKey: .op)
        fields = try container.decodeIfPresent([String: JSONTree].self, forKey: .fields) ?? [:]
        hlc = try container.decode(HLC.self, forKey: .hlc)
    }
}

/// A record's state on one replica: its fields, the timestamp that last wrote each field, and
/// the deletion timestamp once deleted. Server and devices hold the same shape and merge with the
/// same code, so they converge.
public struct SyncRecord: Hashable, Sendable, Codable {
    public var entity: String
    @LowercaseUUID public var id: UUID
    public var scope: String
    public var fields: [String: JSONTree]
    public var stamps: [String: HLC]
    public var deleted: HLC?

    public init(entity: String, id: UUID, scope: String) {
        self.entity = entity
        self.id = id
        self.scope = scope
        self.fields = [:]
        self.stamps = [:]
        self.deleted = nil
    }

    public var isDeleted: Bool { deleted != nil }
}

/// What merging one mutation did to a record.
public enum MergeOutcome: Hashable, Sendable {
    /// At least one field (or the deletion) changed.
    case changed
    /// Every field already carried a later write: nothing changed (an old or repeated mutation).
    case superseded
    /// The record is deleted; an upsert never brings it back (docs/sync.md: deletion wins).
    case ignoredDeleted
}

extension SyncRecord {
    /// Applies `mutation` by the merge rule: per field, the later HLC wins (ties cannot happen
    /// between different nodes, the node id breaks them); a delete wins over every upsert, earlier
    /// or later. Applying the same mutation twice, or mutations in any order, gives the same record.
    @discardableResult
    public mutating func merge(_ mutation: Mutation) -> MergeOutcome {
        switch mutation.op {
        case .delete:
            guard let current = deleted else {
                deleted = mutation.hlc
                // A tombstone keeps no data: replicas that saw different upserts before the
                // delete must still end identical.
                fields = [:]
                stamps = [:]
                return .changed
            }
            // The earliest delete is kept, so the stored state does not depend on arrival order.
            if mutation.hlc < current {
                deleted = mutation.hlc
                return .changed
            }
            return .superseded
        case .upsert:
            if deleted != nil { return .ignoredDeleted }
            var changed = false
            for (name, value) in mutation.fields {
                if let stamp = stamps[name], mutation.hlc <= stamp { continue }
                fields[name] = value
                stamps[name] = mutation.hlc
                changed = true
            }
            return changed ? .changed : .superseded
        }
    }
}

extension SyncRecord {
    /// The latest of its stamps and its deletion's: a replica that sees this record must stamp
    /// its later writes after it.
    public var latestStamp: HLC? {
        var latest = deleted
        for stamp in stamps.values where latest.map({ $0 < stamp }) ?? true { latest = stamp }
        return latest
    }

    /// Merges another replica's state of the same record (a pulled change) by the same rule as
    /// `merge(_: Mutation)`: per field the later stamp wins, the earliest delete wins and clears the
    /// fields. Merging states in any order, or twice, gives the same record.
    @discardableResult
    public mutating func merge(_ other: SyncRecord) -> MergeOutcome {
        if let theirs = other.deleted {
            if let mine = deleted, mine <= theirs { return .superseded }
            deleted = theirs
            fields = [:]
            stamps = [:]
            return .changed
        }
        if deleted != nil { return .ignoredDeleted }
        var changed = false
        for (name, stamp) in other.stamps {
            if let mine = stamps[name], stamp <= mine { continue }
            fields[name] = other.fields[name] ?? .null
            stamps[name] = stamp
            changed = true
        }
        return changed ? .changed : .superseded
    }
}
