import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// A synced record is its scope and its id together (docs/sync.md, "Identity"): no account can
/// occupy an id another account will need, nor learn from a refusal whether that account used it.
/// Ids derived from a user id (the Nutrition goal and days, the Outreach preferences) are public to
/// anyone who knows the user id, as every member of a family does.
@Suite("Record identity per scope")
struct RecordIdentityTests {
    typealias Device = SyncAPITests.Device

    static func scope(_ device: Device) -> String { "user:\(device.userID)" }

    /// An Outreach year of Bob's whose id is one Ada needs: any entity serves to squat an id.
    static func squat(_ bob: inout Device, _ id: UUID, _ op: Mutation.Operation = .upsert) -> Mutation {
        bob.mutation(
            id, op, op == .delete ? [:] : ["name": .string("squat \(id.uuidString.prefix(4))"), "createdAt": .string("2026-11-17T08:00:00.000Z")],
            entity: OutreachEntities.year.name)
    }

    @Test("ids derived from another user's id are still that user's to use, on push", arguments: Engine.available)
    func anotherAccountCannotTakeYourDerivedIds(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var ada = SyncAPITests.device(try await client.signUp("ada@example.com"), node: "ada", server: server)
            var bob = SyncAPITests.device(try await client.signUp("bob@example.com"), node: "bob", server: server)
            let today = NutritionSyncTests.today(server)
            let adasGoal = NutritionFields.goalID(scope: Self.scope(ada))
            let adasDay = NutritionFields.dayID(scope: Self.scope(ada), date: today)

            // Bob takes Ada's goal id and today's day id first, in his own scope.
            let squatted = try await SyncAPITests.push(client, bob, [Self.squat(&bob, adasGoal), Self.squat(&bob, adasDay)])
            #expect(squatted.results.map(\.status) == [.applied, .applied])

            // Ada sets her goal and logs today anyway.
            let goal = ada.mutation(
                adasGoal, .upsert, NutritionFields.goal(2000, timeZone: TimeZone(identifier: "UTC")), entity: NutritionEntities.goal.name)
            let day = NutritionSyncTests.day(&ada, today)
            let item = NutritionSyncTests.item(&ada, UUID(), day: adasDay, "After")
            let pushed = try await SyncAPITests.push(client, ada, [goal, day, item])
            #expect(pushed.results.map(\.status) == [.applied, .applied, .applied], "\(pushed.results.compactMap(\.message))")

            // Each sees only their own records under those ids.
            let adas = try await SyncAPITests.pull(client, ada).changes
            #expect(Set(adas.map(\.entity)) == [NutritionEntities.goal.name, NutritionEntities.day.name, NutritionEntities.item.name])
            #expect(adas.allSatisfy { $0.scope == Self.scope(ada) })
            let bobs = try await SyncAPITests.pull(client, bob).changes
            #expect(bobs.map(\.entity) == [OutreachEntities.year.name, OutreachEntities.year.name])
            #expect(bobs.allSatisfy { $0.scope == Self.scope(bob) && !$0.deleted })

            // Bob's probes of Ada's ids tell him nothing: deleting his own record of that id is
            // applied whether Ada logged that day or not, and Ada's day stays.
            let adasOtherDay = NutritionFields.dayID(scope: Self.scope(ada), date: today.adding(days: -1))
            let probes = try await SyncAPITests.push(
                client, bob, [Self.squat(&bob, adasDay, .delete), Self.squat(&bob, adasOtherDay, .delete)])
            #expect(probes.results.map(\.status) == [.applied, .applied])
            #expect(probes.results.allSatisfy { $0.code == nil && $0.record == nil })
            let after = try await SyncAPITests.pull(client, ada).changes
            #expect(after.contains { $0.id == adasDay && !$0.deleted }, "Ada's day is untouched")

            // Within one scope an id is still one record: another entity can't take it.
            let clash = try await SyncAPITests.push(client, ada, [Self.squat(&ada, adasGoal)])
            #expect(clash.results.first?.code == "forbidden")
        }
    }

    @Test("a goal set on the web page is written whoever used its id elsewhere", arguments: Engine.available)
    func theWebPagesWriteYourDerivedIdsToo(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, device) = try await NutritionPagesTests.signedUp(client, "ada@example.com")
            let adaScope = NutritionPagesTests.scope(device)
            var bob = SyncAPITests.device(try await client.signUp("bob@example.com"), node: "bob", server: server)
            let today = NutritionPagesTests.today(server)
            let taken = [NutritionFields.goalID(scope: adaScope), NutritionFields.dayID(scope: adaScope, date: today)]
            #expect(try await SyncAPITests.push(client, bob, taken.map { Self.squat(&bob, $0) }).results.map(\.status) == [.applied, .applied])

            let set = try await browser.post(
                client, "/food/goal", form: ["date": today.description, "dailyCalories": "2000", "timeZone": "UTC"])
            #expect(set.status == .found, "\(set.text)")
            let logged = try await browser.post(
                client, "/food/items", form: ["date": today.description, "name": "After", "calories": "5"])
            #expect(logged.status == .found, "\(logged.text)")
            let records = try await NutritionPagesTests.pulled(client, device)
            #expect(NutritionPagesTests.live(records, NutritionEntities.goal).map(\.id) == [taken[0]])
            #expect(NutritionPagesTests.live(records, NutritionEntities.day).map(\.id) == [taken[1]])
            #expect(NutritionPagesTests.live(records, NutritionEntities.item).map { $0.fields["name"] } == [.string("After")])
        }
    }
}
