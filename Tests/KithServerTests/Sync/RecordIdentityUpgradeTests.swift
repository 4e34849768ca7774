import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Logging
import Testing

@testable import KithServer

/// Records stored while ids were global are keyed by scope and id after the upgrade: nothing is
/// lost, and an id another account already held is free in yours from then on.
@Suite("Record identity across the upgrade")
struct RecordIdentityUpgradeTests {
    @Test(arguments: Engine.available)
    func recordsStoredBeforeKeepTheirDataAndTheirIdsStopBlockingOthers(engine: Engine) async throws {
        let scratch = try await PostgresScratch.create(for: engine)
        let directory = try makeTemporaryDirectory("kith-upgrade").path
        let ada = UUID().lowercased
        let bob = UUID().lowercased
        let adasGoal = NutritionFields.goalID(scope: "user:\(ada)")
        let bobsYear = UUID()
        do {
            var config = ServerConfig()
            config.dataDirectory = directory
            config.databaseURL = scratch?.url
            try await Self.writeVersion11(config.databaseLocation, ada: ada, bob: bob, adasGoal: adasGoal, bobsYear: bobsYear)
            try await TestServer.withRouter(engine, sharedDatabaseURL: scratch?.url, configure: { $0.dataDirectory = directory }) {
                server, client in
                let adaSession = try await client.logIn("ada@example.com", "correct horse").decode(AuthSessionResponse.self)
                var adaDevice = SyncAPITests.device(adaSession, node: "ada", server: server)
                let adas = try await SyncAPITests.pull(client, adaDevice).changes
                #expect(adas.map(\.id) == [adasGoal])
                #expect(adas.first?.fields["dailyCalories"] == .int(1800), "the record kept its data")
                #expect(adas.first?.stamps["dailyCalories"]?.node == "old-phone", "and its stamps")

                // Bob, who may have known Ada's user id all along, now writes under her goal's id in
                // his own scope; Ada's goal is untouched, and she still changes it.
                let bobSession = try await client.logIn("bob@example.com", "correct horse").decode(AuthSessionResponse.self)
                var bobDevice = SyncAPITests.device(bobSession, node: "bob", server: server)
                let squat = RecordIdentityTests.squat(&bobDevice, adasGoal)
                #expect(try await SyncAPITests.push(client, bobDevice, [squat]).results.map(\.status) == [.applied])
                let bobs = try await SyncAPITests.pull(client, bobDevice).changes
                #expect(Set(bobs.map(\.id)) == [bobsYear, adasGoal])
                let edit = adaDevice.mutation(
                    adasGoal, .upsert, ["dailyCalories": .int(2100)], entity: NutritionEntities.goal.name)
                #expect(try await SyncAPITests.push(client, adaDevice, [edit]).results.map(\.status) == [.applied])
                let now = try await SyncAPITests.pull(client, adaDevice).changes
                #expect(now.map { $0.fields["dailyCalories"] } == [.int(2100)])
            }
        } catch {
            await scratch?.drop()
            throw error
        }
        await scratch?.drop()
    }

    /// The database as version 11 left it: Ada with a goal, Bob with a year.
    private static func writeVersion11(_ location: DatabaseLocation, ada: String, bob: String, adasGoal: UUID, bobsYear: UUID)
        async throws
    {
        var logger = Logger(label: "kith-test-upgrade")
        logger.logLevel = .warning
        let database = try await KithDatabase.open(location, logger: logger, migrate: false)
        let hash = try await PasswordHasher(cost: 4).hash("correct horse")
        let now = TestClock().now.epochMillis
        do {
            try await Migrator(database: database, clock: .system, migrations: Migrations.all.filter { $0.version <= 11 })
                .migrate()
            try await database.transaction { sql in
                for (id, email) in [(ada, "ada@example.com"), (bob, "bob@example.com")] {
                    try await sql.raw(
                        """
                        INSERT INTO users (id, email, password_hash, created_at, password_changed_at)
                        VALUES (\(bind: id), \(bind: email), \(bind: hash), \(bind: now), \(bind: now))
                        """
                    ).run()
                }
                let stamp = HLC(wallMillis: now - 60_000, counter: 0, node: "old-phone")
                let records: [(UUID, String, String, [String: JSONTree], Int64)] = [
                    (adasGoal, "nutrition.goal", "user:\(ada)", ["dailyCalories": .int(1800), "timeZone": .string("UTC")], 1),
                    (bobsYear, "outreach.year", "user:\(bob)", ["name": .string("2026"), "createdAt": .string("2026-11-17T08:00:00.000Z")], 2),
                ]
                for (id, entity, scope, fields, seq) in records {
                    try await sql.raw(
                        """
                        INSERT INTO sync_records (id, entity, scope, fields, stamps, deleted, seq)
                        VALUES (\(bind: id.lowercased), \(bind: entity), \(bind: scope),
                                \(bind: JSONTree.object(JSONObject(fields.sorted { $0.key < $1.key })).text),
                                \(bind: FieldStamps.text(of: fields.mapValues { _ in stamp })), NULL, \(bind: seq))
                        """
                    ).run()
                }
                try await sql.raw("UPDATE sync_counter SET value = 2 WHERE id = 1").run()
            }
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }
}
