import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// A day outside the retention window is refused where it is written (seed 002 req. 11): on push,
/// with `outside_retention`, and nothing changes.
@Suite("Nutrition retention on push")
struct NutritionRetentionOnPushTests {
    @Test(arguments: Engine.available)
    func aNewDayOlderThanTheWindowIsRefusedAndChangesNothing(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var log = NutritionRetentionJobTests.Log(
                device: SyncAPITests.device(try await client.signUp("ada@example.com"), node: "phone", server: server))
            let today = LocalDate(server.clock.now, in: NutritionRetentionJob.utc)
            // Expired in every zone (the server does not know the device's): 92 days ago.
            let expired = today.adding(days: -92)
            let before = try await SyncAPITests.pull(client, log.device)
            let scope = "user:" + log.device.userID
            let sequence = try await SyncRepository(database: server.app.database).currentSequenceValues(of: [scope])

            let pushed = try await SyncAPITests.push(
                client, log.device, [log.day(expired), log.item(UUID(), on: expired)])
            #expect(pushed.results.map(\.status) == [.rejected, .rejected])
            #expect(pushed.results.first?.code == "outside_retention")
            #expect(pushed.results.first?.message?.contains("more than 90 days ago") == true)
            #expect(pushed.results.last?.code == "not_found", "its item has no day to go to")

            #expect(try await SyncAPITests.pull(client, log.device, cursor: before.cursor).changes.isEmpty)
            #expect(try await SyncRepository(database: server.app.database).currentSequenceValues(of: [scope]) == sequence)

            // Inside the window the same push is taken.
            let recent = today.adding(days: -89)
            let accepted = try await SyncAPITests.push(
                client, log.device, [log.day(recent), log.item(UUID(), on: recent)])
            #expect(accepted.results.map(\.status) == [.applied, .applied])
        }
    }

    @Test(arguments: Engine.available)
    func theWindowIsTheServersSetting(engine: Engine) async throws {
        try await TestServer.withRouter(
            engine, configure: { $0.nutritionRetention = NutritionRetention(days: 30) ?? .standard }
        ) {
            server, client in
            var log = NutritionRetentionJobTests.Log(
                device: SyncAPITests.device(try await client.signUp("ada@example.com"), node: "phone", server: server))
            let today = LocalDate(server.clock.now, in: NutritionRetentionJob.utc)
            let pushed = try await SyncAPITests.push(client, log.device, [log.day(today.adding(days: -40))])
            #expect(pushed.results.first?.code == "outside_retention")
            #expect(pushed.results.first?.message?.contains("more than 30 days ago") == true)
        }
    }
}
