import Foundation
import KithCore

/// Keeps a family's scope in step with its rows: one `family.info` record for the family and one
/// `family.member` record per member, written by the server (`SyncWriter.writeAsServer`) inside
/// the transaction that changed the rows. Devices read names, roles and the time zone from them,
/// and the server's own rules (`FamilyRules`) read roles from them too.
struct FamilyMirror: Sendable {
    let store: SyncTransaction
    let writer: SyncWriter
    let stamps: WebClock
    let ids: IdentifierSource

    /// The live sockets to nudge once the transaction commits.
    private(set) var changes: [ScopeChange] = []

    init(store: SyncTransaction, writer: SyncWriter, stamps: WebClock, ids: IdentifierSource) {
        self.store = store
        self.writer = writer
        self.stamps = stamps
        self.ids = ids
    }

    mutating func info(_ family: FamilyRow) async throws {
        try await upsert(
            FamilyEntities.info, family.infoRecordID,
            ["name": .string(family.name), "timeZone": .string(family.timeZone), "snoozeLimit": .int(family.snoozeLimit)])
    }

    mutating func member(_ member: MemberRow) async throws {
        guard let id = UUID(text: member.recordID) else { throw SyncStorageError("bad member record id") }
        try await upsert(
            FamilyEntities.member, id,
            ["userId": .string(member.userID), "displayName": .string(member.displayName), "role": .string(member.role)])
    }

    mutating func removed(_ member: MemberRow) async throws {
        guard let id = UUID(text: member.recordID) else { throw SyncStorageError("bad member record id") }
        let current = try await store.record(id)
        let mutation = Mutation(
            mutationId: ids.uuid(), entity: FamilyEntities.member.name, id: id, scope: store.scope, op: .delete,
            hlc: stamps.stamp(after: current.map { [$0] } ?? []))
        try await apply(mutation)
    }

    /// Nudges `userID`'s own scope, so their devices pull, and their memberships, so their live
    /// sockets read what they may read again (they joined or left) and follow the family's changes.
    mutating func nudge(user userID: String) {
        changes.append(.nudge("user:" + userID))
        changes.append(.nudge(MembershipScope.of(userID)))
    }

    private mutating func upsert(_ entity: EntityDeclaration, _ id: UUID, _ fields: [String: JSONTree]) async throws {
        let current = try await store.record(id)
        let mutation = Mutation(
            mutationId: ids.uuid(), entity: entity.name, id: id, scope: store.scope, op: .upsert, fields: fields,
            hlc: stamps.stamp(after: current.map { [$0] } ?? []))
        try await apply(mutation)
    }

    private mutating func apply(_ mutation: Mutation) async throws {
        if let change = try await writer.writeAsServer(mutation, in: store) { changes.append(change) }
    }
}
