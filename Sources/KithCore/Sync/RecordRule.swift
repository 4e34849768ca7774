import Foundation

/// A rule that looks beyond one record (a unique name, the last of something, a parent that must
/// exist), written once here and checked by the server inside the mutation's transaction, so two
/// devices can't both pass it. Devices check the same rule before writing locally.
public protocol RecordRule: Sendable {
    /// The entity whose mutations the rule checks.
    var entity: String { get }
    /// Entities whose live records in the mutation's scope the rule needs to see.
    var reads: [String] { get }
    /// Why the mutation must be refused, if it must. `records` holds the live records of `reads`;
    /// `context` says when and where the check runs.
    func problem(with mutation: Mutation, current: SyncRecord?, records: [String: [SyncRecord]], context: RuleContext)
        -> APIErrorDetail?
    /// Entities whose live records `cascade` needs, read only when a record is deleted.
    var cascadeReads: [String] { get }
    /// Records deleted along with this one when the mutation deletes it (a year's people).
    func cascade(of mutation: Mutation, records: [String: [SyncRecord]]) -> [SyncRecord]
}

extension RecordRule {
    public var cascadeReads: [String] { [] }
    public func cascade(of mutation: Mutation, records: [String: [SyncRecord]]) -> [SyncRecord] { [] }
}

/// When and where a rule runs. A rule never reads the clock itself: the server passes its injected
/// `Clock`, a device its own, so tests fix both.
public struct RuleContext: Sendable {
    public var now: Date
    /// The person's time zone when the checker knows it (a device); nil on the server, where a
    /// rule that depends on the local day must allow every zone (UTC-12 to UTC+14).
    public var timeZone: TimeZone?
    /// Who writes: the signed-in user's id (lower-case UUID), for rules about who may do what (a
    /// family's roles are read from its member records, the same on server and devices); nil when
    /// the writer is not a person (data moving into an account).
    public var actor: String?

    public init(now: Date, timeZone: TimeZone? = nil, actor: String? = nil) {
        self.now = now
        self.timeZone = timeZone
        self.actor = actor
    }
}
