import Foundation

/// `POST /v1/sync/push` body.
public struct PushRequest: Codable, Sendable {
    public var clientId: UUID
    public var mutations: [Mutation]

    public init(clientId: UUID, mutations: [Mutation]) {
        self.clientId = clientId
        self.mutations = mutations
    }
}

/// The outcome of one pushed mutation.
public struct MutationResult: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable { case applied, duplicate, rejected }

    @LowercaseUUID public var mutationId: UUID
    public var status: Status
    public var code: String?
    public var message: String?
    /// The field at fault, when a rejection is about one (`calories`, `date`).
    public var field: String?
    /// The server's current state of the record, when the mutation was rejected.
    public var record: ChangeDTO?

    /// The refusal of a change stamped too far ahead of the server's clock: the device re-stamps it
    /// by the answer's `serverTime` and sends it again (docs/sync.md, "A device's clock").
    public static let clockSkew = ErrorCode.clockSkew.rawValue

    public init(
        mutationId: UUID, status: Status, code: String? = nil, message: String? = nil, field: String? = nil,
        record: ChangeDTO? = nil
    ) {
        self.mutationId = mutationId
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.record = record
    }
}

public struct PushResponse: Codable, Sendable {
    public var results: [MutationResult]
    public var cursor: String
    /// The server's clock when it answered (milliseconds since 1970): a device whose stamps ran
    /// ahead of it (`clock_skew`) re-bases its own clock on it. Nil from a server that does not say.
    public var serverTime: Int64?

    public init(results: [MutationResult], cursor: String, serverTime: Int64? = nil) {
        self.results = results
        self.cursor = cursor
        self.serverTime = serverTime
    }
}

/// A record as pull hands it out. `stamps` (the HLC of each field's last write) and `deletedStamp`
/// let a device merge the server's state with its own unpushed edits by the same rule as the server
/// (docs/sync.md lists `fields`, `deleted` and `seq`; the stamps are Kith's addition for that merge).
public struct ChangeDTO: Codable, Sendable, Equatable {
    public var entity: String
    @LowercaseUUID public var id: UUID
    public var scope: String
    public var fields: [String: JSONTree]
    public var stamps: [String: HLC]
    public var deleted: Bool
    public var deletedStamp: HLC?
    public var seq: Int64

    public init(record: SyncRecord, seq: Int64) {
        self.entity = record.entity
        self.id = record.id
        self.scope = record.scope
        self.fields = record.fields
        self.stamps = record.stamps
        self.deleted = record.isDeleted
        self.deletedStamp = record.deleted
        self.seq = seq
    }

    /// The record this change carries.
    public var record: SyncRecord {
        var record = SyncRecord(entity: entity, id: id, scope: scope)
        record.fields = fields
        record.stamps = stamps
        record.deleted = deletedStamp
        return record
    }
}

public struct PullResponse: Codable, Sendable {
    public var changes: [ChangeDTO]
    public var cursor: String
    public var hasMore: Bool
    /// Scopes the cursor held that the user can no longer read (they left a family or were
    /// removed): a device drops every record of them. Absent when there are none.
    public var gone: [String]?

    public init(changes: [ChangeDTO], cursor: String, hasMore: Bool, gone: [String]? = nil) {
        self.changes = changes
        self.cursor = cursor
        self.hasMore = hasMore
        self.gone = gone
    }
}
