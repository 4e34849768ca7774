import Foundation
import KithCore

/// A live record as apps read it from the local store.
public struct LocalRecord: Sendable, Equatable, Identifiable {
    public let entity: String
    public let id: UUID
    public let scope: String
    public let fields: [String: JSONTree]

    init(_ record: SyncRecord) {
        entity = record.entity
        id = record.id
        scope = record.scope
        fields = record.fields
    }

    public subscript(field: String) -> JSONTree? { fields[field] }

    /// The record in the shape KithCore's books and rules read (stamps are not kept here).
    public var syncRecord: SyncRecord {
        var record = SyncRecord(entity: entity, id: id, scope: scope)
        record.fields = fields
        return record
    }

    /// The field as text, nil when absent, null or not text.
    public func string(_ field: String) -> String? { fields[field]?.stringValue }

    public func bool(_ field: String) -> Bool? {
        if case .bool(let flag) = fields[field] { return flag }
        return nil
    }

    public func number(_ field: String) -> Double? {
        fields[field]?.doubleValue
    }
}

/// A change this device made that the server refused; it is dropped from the outbox and kept here
/// so the app can tell the person (docs/sync.md: never retried forever).
public struct SyncRejection: Sendable, Equatable {
    public let mutationId: UUID
    public let entity: String
    public let recordId: UUID
    public let code: String
    public let message: String
    public let at: Date
}

/// A record that a pull changed on this device.
public struct RecordChange: Sendable, Equatable {
    public let entity: String
    public let id: UUID
    public let deleted: Bool
}

/// What the store did with a push's answer.
struct PushCompletion {
    /// Changes the server refused, out of the outbox now.
    var rejections: [SyncRejection] = []
    /// Changes refused for this device's clock, kept queued to be sent again.
    var heldBack = 0
    /// Queued changes re-stamped by the server's time.
    var restamped = 0
}

/// What one pulled page did on this device.
struct PulledPage {
    var changes: [RecordChange] = []
    var conflicts: [RecordConflict] = []
}

/// Another device changed what this one had changed and not yet sent. The merge rule already
/// decided (the later write wins, a deletion wins); this tells which way, for logs and debugging.
public struct RecordConflict: Sendable, Equatable {
    public let entity: String
    public let id: UUID
    /// Fields where this device's unsent value was kept (it was the later write).
    public let keptLocal: [String]
    /// Fields where the other device's value replaced this device's unsent one.
    public let keptRemote: [String]
    /// The record was deleted elsewhere: this device's unsent edits will be refused.
    public let deletedElsewhere: Bool
}
