import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Every row of `FamilyRuleTable` through `/v1/sync/push`, on every engine: the outcome each kind
/// of person meets, and that a refused write changed nothing (nor anything readable from outside).
@Suite("Family rules on push")
struct FamilyPushRulesTests {
    /// The cast: a family (creator and parent are parents; assignee and child are children), a
    /// parent of another family, and someone in none.
    struct Cast {
        var devices: [FamilyRuleTable.Actor: SyncAPITests.Device]
        let family: FamilyDTO
        var latest: HLC?

        func id(_ actor: FamilyRuleTable.Actor) -> String { devices[actor]!.userID }

        static func make(_ client: any TestClientProtocol, _ server: TestServer) async throws -> Cast {
            var people: [FamilyRuleTable.Actor: FamilyPerson] = [:]
            for actor in FamilyRuleTable.Actor.allCases {
                people[actor] = try await FamilyPerson.signUp("\(actor.rawValue.lowercased())@example.com", client, server)
            }
            let creator = people[.creator]!
            let family = try await FamilyCalls.create(client, creator)
            for (actor, role) in [(FamilyRuleTable.Actor.assignee, FamilyRole.child), (.parent, .parent), (.child, .child)] {
                let joined = try await FamilyCalls.join(client, people[actor]!, try await FamilyCalls.code(client, creator, role))
                #expect(joined.status == .ok, "\(joined.text)")
            }
            _ = try await FamilyCalls.create(client, people[.otherFamily]!, name: "Dupont")
            return Cast(devices: people.mapValues(\.device), family: family)
        }

        mutating func push(_ actor: FamilyRuleTable.Actor, _ client: any TestClientProtocol, _ build: (inout SyncAPITests.Device) -> Mutation)
            async throws -> MutationResult
        {
            // Every device has seen the latest change, as after a pull: a write is the newest.
            if let latest { _ = devices[actor]!.clock.receive(latest, now: devices[actor]!.now) }
            let mutation = build(&devices[actor]!)
            latest = mutation.hlc
            let response = try await SyncAPITests.push(client, devices[actor]!, [mutation])
            return try #require(response.results.first)
        }

        mutating func mutation(
            _ actor: FamilyRuleTable.Actor, _ id: UUID, _ op: Mutation.Operation, _ fields: [String: JSONTree] = [:],
            entity: EntityDeclaration = FamilyEntities.reminder
        ) -> (inout SyncAPITests.Device) -> Mutation {
            { [scope = family.scope] device in device.mutation(id, op, fields, scope: scope, entity: entity.name) }
        }
    }

    @Test(arguments: Engine.available)
    func everyRuleForEveryoneThroughPush(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var cast = try await Cast.make(client, server)
            let now = server.clock.now
            let tomorrow = now.addingTimeInterval(86_400)
            for (action, actor) in FamilyRuleTable.rows {
                // A fresh reminder from the creator for the assignee, with one checklist item.
                let reminder = UUID()
                let item = UUID()
                let made = FamilyRuleTable.reminder(
                    title: "Practise piano", due: tomorrow, assignee: cast.id(.assignee), creator: cast.id(.creator), now: now)
                #expect(try await cast.push(.creator, client, cast.mutation(.creator, reminder, .upsert, made)).status == .applied)
                let itemFields: [String: JSONTree] = [
                    "reminderId": .string(reminder.lowercased), "text": .string("Scales"), "done": .bool(false), "position": .int(0),
                ]
                #expect(
                    try await cast.push(.creator, client, cast.mutation(.creator, item, .upsert, itemFields, entity: FamilyEntities.checklistItem))
                        .status == .applied)
                if action.startsCompleted {
                    let done: [String: JSONTree] = [
                        "status": .string("completed"), "completedBy": .string(cast.id(.assignee)),
                        "completedAt": .string(WireCoding.formatTimestamp(now)),
                        "completedDueAt": .string(WireCoding.formatTimestamp(tomorrow)),
                    ]
                    #expect(try await cast.push(.assignee, client, cast.mutation(.assignee, reminder, .upsert, done)).status == .applied)
                }
                let before = try await Self.familyRecords(cast, client)

                let me = cast.id(actor)
                let write: (inout SyncAPITests.Device) -> Mutation
                switch action {
                case .createForAssignee, .createForSelf, .createInThePast, .createWithoutTitle, .createRepeatingTooRarely:
                    var fields = FamilyRuleTable.reminder(
                        title: action == .createWithoutTitle ? nil : "New", due: action == .createInThePast ? now.addingTimeInterval(-3600) : tomorrow,
                        assignee: action == .createForAssignee ? cast.id(.assignee) : me, creator: me, now: now)
                    if action == .createRepeatingTooRarely {
                        fields["repeatDays"] = .string("MO")
                        fields["repeatInterval"] = .int(53)
                        fields["repeatStart"] = .string(LocalDate(tomorrow, in: TimeZone(identifier: "Europe/Paris")!).description)
                        fields["repeatTime"] = .string("07:30")
                    }
                    write = cast.mutation(actor, UUID(), .upsert, fields)
                case .editTitle, .editCompleted:
                    write = cast.mutation(actor, reminder, .upsert, ["title": .string("Practise violin")])
                case .reschedule:
                    write = cast.mutation(actor, reminder, .upsert, ["dueAt": .string(WireCoding.formatTimestamp(tomorrow + 3600))])
                case .tickItem:
                    write = cast.mutation(actor, item, .upsert, ["done": .bool(true)], entity: FamilyEntities.checklistItem)
                case .rewordItem:
                    write = cast.mutation(actor, item, .upsert, ["text": .string("Arpeggios")], entity: FamilyEntities.checklistItem)
                case .addItem:
                    var added = itemFields
                    added["text"] = .string("Arpeggios")
                    write = cast.mutation(actor, UUID(), .upsert, added, entity: FamilyEntities.checklistItem)
                case .deleteItem:
                    write = cast.mutation(actor, item, .delete, entity: FamilyEntities.checklistItem)
                case .completeWithoutCompletedBy:
                    write = cast.mutation(actor, reminder, .upsert, ["status": .string("completed")])
                case .complete:
                    write = cast.mutation(
                        actor, reminder, .upsert,
                        ["status": .string("completed"), "completedBy": .string(me), "completedAt": .string(WireCoding.formatTimestamp(now))])
                case .delete:
                    write = cast.mutation(actor, reminder, .delete)
                case .undoCompletion:
                    write = cast.mutation(
                        actor, reminder, .upsert,
                        [
                            "status": .string("pending"), "completedBy": .null, "completedAt": .null, "completedDueAt": .null,
                            "dueAt": .string(WireCoding.formatTimestamp(tomorrow)),
                        ])
                }
                let result = try await cast.push(actor, client, write)
                // Compared as one Bool, so a failure names the row without printing every record.
                let changed = try await Self.familyRecords(cast, client) != before
                let expected = FamilyRuleTable.expected(action, actor)
                #expect(result.code == expected, "\(action) by \(actor): \(result.message ?? "applied")")
                if expected != nil {
                    #expect(result.status == .rejected)
                    #expect(result.message?.isEmpty == false, "a refusal says why")
                    #expect(!changed, "\(action) by \(actor) changed nothing")
                } else {
                    #expect(changed, "\(action) by \(actor) was stored")
                }
                // Nothing of the family ever reaches someone outside it.
                for outsider in [FamilyRuleTable.Actor.otherFamily, .noFamily] {
                    let seen = try await SyncAPITests.pull(client, cast.devices[outsider]!).changes
                    #expect(seen.allSatisfy { $0.scope != cast.family.scope }, "\(outsider) reads nothing of it")
                }
            }
        }
    }

    /// The family's live records as the creator's device pulls them, by id: fields only.
    static func familyRecords(_ cast: Cast, _ client: any TestClientProtocol) async throws -> [UUID: [String: JSONTree]] {
        var records: [UUID: [String: JSONTree]] = [:]
        var cursor: String?
        repeat {
            let page = try await SyncAPITests.pull(client, cast.devices[.creator]!, cursor: cursor, limit: 1000)
            for change in page.changes where change.scope == cast.family.scope {
                records[change.id] = change.deleted ? nil : change.fields
            }
            cursor = page.hasMore ? page.cursor : nil
        } while cursor != nil
        return records
    }
}
