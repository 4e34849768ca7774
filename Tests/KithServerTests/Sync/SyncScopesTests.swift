import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Scopes beyond one's own (families, with roles) as far as the mechanism goes before the Family
/// app: the rules gate and the per-scope cursor.
@Suite("Sync scopes, roles and cursors")
struct SyncScopesTests {
    static let chore = EntityDeclaration(
        name: "test.chore", scope: .family, fields: [FieldDeclaration("title", .string(maxLength: 50))],
        writeRule: .roles(["parent"]))
    static let note = EntityDeclaration(name: "test.note", scope: .user, fields: [FieldDeclaration("title", .string(maxLength: 50))])
    static let rules = SyncRules(catalog: EntityCatalog([chore, note]))

    static func mutation(_ entity: String, scope: String, title: String = "t", wall: Int64 = 1_000) -> Mutation {
        Mutation(
            mutationId: UUID(), entity: entity, id: UUID(), scope: scope, op: .upsert, fields: ["title": .string(title)],
            hlc: HLC(wallMillis: wall, counter: 0, node: "n"))
    }

    @Test func parentsOnlyRulesFollowTheMembersRole() {
        let family = "family:f1"
        let parent = [ScopeMembership(scope: "user:p", role: nil), ScopeMembership(scope: family, role: "parent")]
        let child = [ScopeMembership(scope: "user:c", role: nil), ScopeMembership(scope: family, role: "child")]
        let outsider = [ScopeMembership(scope: "user:o", role: nil)]
        let chore = Self.mutation("test.chore", scope: family)
        #expect((try? Self.rules.check(chore, memberships: parent, now: 2_000).get())?.name == "test.chore")
        #expect(Self.refusal(chore, child) == "forbidden")
        #expect(Self.refusal(chore, outsider) == "forbidden")
        // A user entity can't be written into a family scope, nor a family entity into a user scope.
        #expect(Self.refusal(Self.mutation("test.note", scope: family), parent) == "forbidden")
        #expect(Self.refusal(Self.mutation("test.chore", scope: "user:p"), parent) == "forbidden")
        #expect(Self.refusal(Self.mutation("test.note", scope: "user:p", wall: 2_000 + 5 * 60 * 1000 + 1), parent) == "clock_skew")
        #expect(Self.refusal(Self.mutation("test.nothing", scope: "user:p"), parent) == "unknown_entity")
    }

    static func refusal(_ mutation: Mutation, _ memberships: [ScopeMembership], rules: SyncRules = rules) -> String? {
        if case .failure(let refusal) = rules.check(mutation, memberships: memberships, now: 2_000) { return refusal.code }
        return nil
    }

    /// A family's info and member records are the server's bookkeeping: no member pushes them, not
    /// even a parent, while the same parent may push a reminder.
    @Test func recordsOnlyTheServerWritesAreRefusedOnPushForEveryRole() {
        let rules = SyncRules(catalog: .kith)
        let family = "family:f1"
        let parent = [ScopeMembership(scope: family, role: "parent")]
        for entity in [FamilyEntities.member.name, FamilyEntities.info.name] {
            #expect(Self.refusal(Self.mutation(entity, scope: family), parent, rules: rules) == "forbidden", "\(entity)")
        }
        #expect(Self.refusal(Self.mutation(FamilyEntities.reminder.name, scope: family), parent, rules: rules) == nil)
    }

    @Test func cursorsReadBackAndRefuseWhatTheServerNeverGaveOut() {
        let cursor = SyncCursor(positions: ["user:a": 12, "family:f": 7])
        #expect(SyncCursor(text: cursor.text) == cursor)
        #expect(SyncCursor(text: SyncCursor().text) == SyncCursor())
        for bad in ["%%%", "bm9wZQ", "dXNlcjphPXg", "PTM"] {  // not base64, "nope", "user:a=x", "=3"
            #expect(SyncCursor(text: bad) == nil, "\(bad)")
        }
        #expect(cursor.positions(for: ["user:a", "family:new"]) == ["user:a": 12, "family:new": 0])
        // Values count per scope: a page moves only the scopes it holds changes of.
        #expect(
            cursor.advanced(for: ["user:a", "family:f", "family:g"], through: [("family:f", 9), ("family:f", 10)]).positions
                == ["user:a": 12, "family:f": 10, "family:g": 0])
        #expect(cursor.advanced(for: ["user:a"], through: []).positions == ["user:a": 12], "a scope no longer readable drops out")
    }

    /// A user who joins a family after pulling gets the family's earlier records on the next pull.
    @Test(arguments: Engine.available)
    func aScopeGainedLaterIsPulledFromItsBeginning(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let parent = try await client.signUp("parent@example.com").user.id.uuidString.lowercased()
            let member = try await client.signUp("member@example.com").user.id.uuidString.lowercased()
            try await Self.gainScope(server, parent: parent, member: member)
        }
    }

    static func gainScope(_ server: TestServer, parent: String, member: String) async throws {
        let repository = SyncRepository(database: server.app.database)
        let writer = SyncWriter(
            repository: repository, rules: rules, clock: Clock { Date(timeIntervalSince1970: 2) },
            notifier: LocalChangeNotifier(hub: LiveHub()))
        let user = "user:\(member)"
        let family = "family:\(UUID().uuidString.lowercased())"
        // The family's records exist before the member joins; then the member writes their own.
        let parentOf = [ScopeMembership(scope: family, role: "parent")]
        for title in ["dishes", "laundry"] {
            let written = try await writer.write(
                [Self.mutation("test.chore", scope: family, title: title)], userID: parent, memberships: parentOf)
            #expect(written.map(\.status) == [.applied])
        }
        let mine = try await writer.write(
            [Self.mutation("test.note", scope: user, title: "mine")], userID: member,
            memberships: [ScopeMembership(scope: user, role: nil)])
        #expect(mine.map(\.status) == [.applied])

        let before = try await repository.changes(after: SyncCursor().positions(for: [user]), limit: 100)
        #expect(before.map(\.scope) == [user])
        let cursor = SyncCursor().advanced(for: [user], through: before.map { ($0.scope, $0.seq) })

        let after = try await repository.changes(after: cursor.positions(for: [user, family]), limit: 100)
        #expect(try after.map { try $0.record().fields["title"] } == [.string("dishes"), .string("laundry")])
        let next = cursor.advanced(for: [user, family], through: after.map { ($0.scope, $0.seq) })
        #expect(try await repository.changes(after: next.positions(for: [user, family]), limit: 100).isEmpty)
    }
}
