import Foundation
import KithCore

@testable import KithKit

/// One family as the server mirrors it (a `family.info` record and a `family.member` record per
/// member): two parents and a child, in Berlin, and the devices of its members.
enum FamilyFixture {
    static let id = UUID(uuidString: "0F9E0C2A-51D8-4C55-9D55-1C6F3F3C9A10")!
    static var scope: String { "family:\(id.lowercased)" }
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// 2026-11-24T12:00:00Z, a Tuesday (13:00 in Berlin).
    static let noon = Date(timeIntervalSince1970: 1_795_521_600)

    static let ada = UUID(uuidString: "AAAAAAAA-0000-4000-8000-000000000001")!
    static let ben = UUID(uuidString: "BBBBBBBB-0000-4000-8000-000000000002")!
    static let cleo = UUID(uuidString: "CCCCCCCC-0000-4000-8000-000000000003")!
    /// Ada and Ben are parents, Cleo is their child.
    static let members: [(user: UUID, name: String, role: String)] = [
        (ada, "Ada", "parent"), (ben, "Ben", "parent"), (cleo, "Cleo", "child"),
    ]

    /// A device of `user`: their own store, empty until it pulls the family.
    static func device(_ user: UUID, now: @escaping @Sendable () -> Date = { noon }) throws -> LocalStore {
        try LocalStore(url: nil, catalog: .kith, userScope: "user:\(user.lowercased)", now: now, timeZone: berlin)
    }

    /// The family's records as the server writes them.
    static func serverRecords() -> [SyncRecord] {
        var records = [
            record(
                FamilyEntities.info.name, id: id,
                ["name": .string("Lovelaces"), "timeZone": .string(berlin.identifier)])
        ]
        for member in members {
            records.append(
                record(
                    FamilyEntities.member.name, id: UUID(),
                    [
                        "userId": .string(member.user.lowercased), "displayName": .string(member.name),
                        "role": .string(member.role),
                    ]))
        }
        return records
    }

    /// `store` pulls the family, as after joining it.
    static func join(_ store: LocalStore) throws {
        let changes = serverRecords().enumerated().map { ChangeDTO(record: $1, seq: Int64($0 + 1)) }
        _ = try store.apply(PullResponse(changes: changes, cursor: "joined", hasMore: false))
    }

    /// A device of `user` that has pulled the family.
    @MainActor
    static func member(_ user: UUID, now: @escaping @Sendable () -> Date = { noon }) throws -> FamilyStore {
        let store = try device(user, now: now)
        try join(store)
        return FamilyStore(store: store)
    }

    static func record(_ entity: String, id: UUID, _ fields: [String: JSONTree]) -> SyncRecord {
        var record = SyncRecord(entity: entity, id: id, scope: scope)
        record.merge(
            Mutation(
                mutationId: UUID(), entity: entity, id: id, scope: scope, op: .upsert, fields: fields,
                hlc: HLC(wallMillis: 1, counter: 0, node: "server")))
        return record
    }
}
