import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// The Nutrition app's rules, enforced by the server on push (docs/nutrition.md): whatever a client
/// sends, a day has its derived id, stays inside the retention window, and items need their day.
@Suite("Nutrition rules on push")
struct NutritionSyncTests {
    static func scope(_ device: SyncAPITests.Device) -> String { "user:\(device.userID)" }

    /// The server's today (its test clock starts at 2026-11-17T08:53:20Z).
    static func today(_ server: TestServer) -> LocalDate { LocalDate(server.clock.now, in: TimeZone(identifier: "UTC")!) }

    static func day(_ device: inout SyncAPITests.Device, _ date: LocalDate, id: UUID? = nil, _ op: Mutation.Operation = .upsert)
        -> Mutation
    {
        let derived = NutritionFields.dayID(scope: scope(device), date: date)
        return device.mutation(id ?? derived, op, op == .delete ? [:] : NutritionFields.day(date, goal: nil), entity: NutritionEntities.day.name)
    }

    static func item(_ device: inout SyncAPITests.Device, _ id: UUID, day: UUID, _ name: String, calories: Double = 100) -> Mutation {
        device.mutation(
            id, .upsert,
            NutritionFields.item(day: day, food: Food(name: name, calories: calories), source: .manual, loggedAt: Date(timeIntervalSince1970: 1_795_000_000)),
            entity: NutritionEntities.item.name)
    }

    @Test(arguments: Engine.available)
    func twoDevicesLoggingOneDayOfflineMakeOneDayWithBothItems(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var phone = SyncAPITests.device(try await client.signUp("ada@example.com"), node: "phone", server: server)
            var laptop = SyncAPITests.Device(token: phone.token, userID: phone.userID, clock: HybridLogicalClock(node: "laptop"), now: phone.now)
            let today = Self.today(server)
            let dayID = NutritionFields.dayID(scope: Self.scope(phone), date: today)
            let fromPhone = try await SyncAPITests.push(client, phone, [Self.day(&phone, today), Self.item(&phone, UUID(), day: dayID, "Apple")])
            let fromLaptop = try await SyncAPITests.push(client, laptop, [Self.day(&laptop, today), Self.item(&laptop, UUID(), day: dayID, "Bread")])
            #expect(fromPhone.results.map(\.status) == [.applied, .applied])
            #expect(fromLaptop.results.map(\.status).allSatisfy { $0 == .applied })
            let changes = try await SyncAPITests.pull(client, phone).changes
            #expect(changes.filter { $0.entity == NutritionEntities.day.name }.map(\.id) == [dayID], "one day")
            let names = changes.filter { $0.entity == NutritionEntities.item.name }.compactMap { $0.record.fields["name"]?.stringValue }
            #expect(names.sorted() == ["Apple", "Bread"], "with the items of both")
        }
    }

    @Test(arguments: Engine.available)
    func whatTheRulesRefuseIsRejectedAndChangesNothing(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var phone = SyncAPITests.device(try await client.signUp("ada@example.com"), node: "phone", server: server)
            let today = Self.today(server)
            let old = today.adding(days: -120)
            let pushed = try await SyncAPITests.push(
                client, phone,
                [
                    Self.day(&phone, today, id: UUID()),  // a random id, as the original app made
                    Self.day(&phone, old),  // outside the window
                    Self.item(&phone, UUID(), day: UUID(), "Orphan"),  // no such day
                    Self.item(&phone, UUID(), day: NutritionFields.dayID(scope: Self.scope(phone), date: today), "Huge", calories: 50_001),
                    phone.mutation(UUID(), .upsert, ["dailyCalories": .int(2000)], entity: NutritionEntities.goal.name),
                ])
            #expect(pushed.results.map(\.code) == ["day_id", "outside_retention", "not_found", "validation_failed", "goal_id"])
            #expect(pushed.results[1].message?.contains("more than 90 days ago") == true)
            #expect(pushed.results[3].field == "calories")
            #expect(try await SyncAPITests.pull(client, phone).changes.isEmpty, "nothing was stored")
        }
    }

    @Test(arguments: Engine.available)
    func aRecentDayIsKeptWhileAnExpiredOneIsDeletedWithItsItems(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var phone = SyncAPITests.device(try await client.signUp("ada@example.com"), node: "phone", server: server)
            let today = Self.today(server)
            let start = today.adding(days: -85)
            let dayID = NutritionFields.dayID(scope: Self.scope(phone), date: start)
            let item = UUID()
            _ = try await SyncAPITests.push(client, phone, [Self.day(&phone, start), Self.item(&phone, item, day: dayID, "Soup")])
            let kept = try await SyncAPITests.push(client, phone, [Self.day(&phone, start, .delete)])
            #expect(kept.results.first?.code == "day_kept", "a day inside the window is not deleted")

            // Once the day has expired, the daily retention job may delete it (and its item) before
            // the push does, whenever its runner looks: either way both are gone after this cursor.
            let before = try await SyncAPITests.pull(client, phone)
            server.clock.advance(by: 10 * 86_400)  // the day is now 95 days old; sign in again
            let session = try await client.logIn("ada@example.com", "correct horse").decode(AuthSessionResponse.self)
            phone = SyncAPITests.Device(token: session.accessToken, userID: phone.userID, clock: phone.clock, now: phone.now + 10 * 86_400_000)
            let purged = try await SyncAPITests.push(client, phone, [Self.day(&phone, start, .delete)])
            #expect(purged.results.first?.status == .applied)
            let after = try await SyncAPITests.pull(client, phone, cursor: before.cursor)
            #expect(Set(after.changes.filter(\.deleted).map(\.id)) == [dayID, item], "the day and its item are deleted")
        }
    }

    /// The limits the pages and devices state are the ones a push meets: a meal of at most 30
    /// ingredients, and no day that has not begun (one far ahead would never be purged).
    @Test(arguments: Engine.available)
    func aPushMeetsTheLimitsThePagesState(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var phone = SyncAPITests.device(try await client.signUp("ada@example.com"), node: "phone", server: server)
            let meal = UUID()
            let made = phone.mutation(
                meal, .upsert, ["name": .string("Feast"), "createdAt": .string("2026-11-17T08:00:00.000Z")],
                entity: NutritionEntities.meal.name)
            let ingredients = (0..<31).map { position in
                phone.mutation(
                    UUID(), .upsert,
                    NutritionFields.ingredient(meal: meal, food: Food(name: "Pea \(position)", calories: 1), position: position),
                    entity: NutritionEntities.ingredient.name)
            }
            let pushed = try await SyncAPITests.push(client, phone, [made] + ingredients)
            #expect(pushed.results.filter { $0.status == .applied }.count == 31, "the meal and 30 ingredients")
            #expect(pushed.results.last?.code == "validation_failed" && pushed.results.last?.field == "ingredients")

            let far = LocalDate("9999-12-31")!
            let tomorrowEverywhere = Self.today(server).adding(days: 2)
            let days = try await SyncAPITests.push(client, phone, [Self.day(&phone, far), Self.day(&phone, tomorrowEverywhere)])
            #expect(days.results.map(\.field) == ["date", "date"])
            let held = try await SyncAPITests.pull(client, phone).changes
            #expect(held.filter { $0.entity == NutritionEntities.ingredient.name }.count == 30)
            #expect(!held.contains { $0.entity == NutritionEntities.day.name })
        }
    }
}
