import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Logging
import Testing

@testable import KithServer

/// The server's Nutrition retention purge (seed 002 req. 11), run by the job runner: expired days go
/// with their items as synced deletions that devices pull; everything else stays.
@Suite("Nutrition retention job")
struct NutritionRetentionJobTests {
    /// Mutations of the Nutrition app as a device makes them.
    struct Log {
        var device: SyncAPITests.Device
        var scope: String { "user:\(device.userID)" }

        mutating func day(_ date: LocalDate) -> Mutation {
            device.mutation(
                NutritionFields.dayID(scope: scope, date: date), .upsert, NutritionFields.day(date, goal: nil),
                entity: NutritionEntities.day.name)
        }

        mutating func item(_ id: UUID, on date: LocalDate) -> Mutation {
            device.mutation(
                id, .upsert,
                NutritionFields.item(
                    day: NutritionFields.dayID(scope: scope, date: date), food: Food(name: "Apple", calories: 95),
                    source: .manual, loggedAt: Date(epochMillis: device.now)),
                entity: NutritionEntities.item.name)
        }

        mutating func goal(timeZone: String?) -> Mutation {
            device.mutation(
                NutritionFields.goalID(scope: scope), .upsert,
                NutritionFields.goal(2000, timeZone: timeZone.flatMap(TimeZone.init(identifier:))),
                entity: NutritionEntities.goal.name)
        }

        mutating func meal(_ id: UUID, ingredient: UUID) -> [Mutation] {
            [
                device.mutation(
                    id, .upsert, NutritionFields.meal(name: "Breakfast", createdAt: Date(epochMillis: device.now)),
                    entity: NutritionEntities.meal.name),
                device.mutation(
                    ingredient, .upsert,
                    NutritionFields.ingredient(meal: id, food: Food(name: "Oats", calories: 150), position: 0),
                    entity: NutritionEntities.ingredient.name),
            ]
        }
    }

    static let quiet: Logger = {
        var logger = Logger(label: "kith-test")
        logger.logLevel = .critical
        return logger
    }()

    /// The device signed in again: after the clock moved months, its access token has expired.
    static func signedInAgain(_ device: SyncAPITests.Device, _ email: String, _ client: any TestClientProtocol)
        async throws -> SyncAPITests.Device
    {
        let session = try await client.logIn(email, "correct horse").decode(AuthSessionResponse.self)
        return SyncAPITests.Device(
            token: session.accessToken, userID: device.userID, clock: device.clock, now: device.now)
    }

    static func moveClock(_ server: TestServer, to date: Date) {
        server.clock.advance(by: date.timeIntervalSince(server.clock.now))
    }

    static func noon(_ day: LocalDate) -> Date {
        Date(epochMillis: NutritionRetentionJob.startOfUTCDay(day) + 12 * 3_600_000)
    }

    /// Three accounts log the same three days; at noon UTC, 89 days after the newest, the oldest is
    /// expired everywhere, the middle one only where the date already changed (UTC+14), and the
    /// newest nowhere. An account's zone is its goal's; without one, the server's lenient rule.
    @Test(arguments: Engine.available)
    func expiredDaysAreDeletedWithTheirItemsInEachPersonsZone(engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: JobTesting.configure([])) { server, client in
            let today = LocalDate(server.clock.now, in: NutritionRetentionJob.utc)
            // The run at start has scheduled tomorrow's before the clock moves.
            try await eventually { try await JobTesting.status(server, "nutrition.retention \(today)") == .done }
            Self.moveClock(server, to: Self.noon(today))
            let oldest = today.adding(days: -6)
            let middle = today.adding(days: -1)
            let purgeDay = today.adding(days: 89)

            var logs: [String: Log] = [:]
            var cursors: [String: String] = [:]
            var items: [String: [LocalDate: UUID]] = [:]
            let meal = UUID()
            let ingredient = UUID()
            let accounts: [(name: String, zone: String?)] = [
                ("kiri", "Pacific/Kiritimati"), ("pago", "Pacific/Pago_Pago"), ("nozone", nil),
            ]
            for (name, zone) in accounts {
                let session = try await client.signUp("\(name)@example.com")
                var log = Log(device: SyncAPITests.device(session, node: name, server: server))
                var mutations: [Mutation] = []
                if let zone { mutations.append(log.goal(timeZone: zone)) }
                for date in [oldest, middle, today] {
                    let item = UUID()
                    items[name, default: [:]][date] = item
                    mutations += [log.day(date), log.item(item, on: date)]
                }
                if name == "kiri" { mutations += log.meal(meal, ingredient: ingredient) }
                let pushed = try await SyncAPITests.push(client, log.device, mutations)
                #expect(pushed.results.allSatisfy { $0.status == .applied }, "\(pushed.results)")
                cursors[name] = try await SyncAPITests.pull(client, log.device).cursor
                logs[name] = log
            }

            // Tomorrow's run (enqueued by the run at start) comes due; it purges and schedules the next.
            Self.moveClock(server, to: Self.noon(purgeDay))
            let run = "nutrition.retention \(today.adding(days: 1))"
            try await eventually { try await JobTesting.status(server, run) == .done }
            #expect(
                try await JobTesting.job(server, "nutrition.retention \(purgeDay.adding(days: 1))").status == .pending)

            let expected: [String: [LocalDate]] = ["kiri": [oldest, middle], "pago": [oldest], "nozone": [oldest]]
            for (name, log) in logs {
                let scope = log.scope
                let device = try await Self.signedInAgain(log.device, "\(name)@example.com", client)
                let gone = try #require(expected[name])
                let after = try await SyncAPITests.pull(client, device, cursor: cursors[name])
                let deletedIDs = Set(
                    gone.flatMap {
                        [NutritionFields.dayID(scope: scope, date: $0), items[name]?[$0]].compactMap { $0 }
                    })
                #expect(after.changes.allSatisfy { $0.deleted }, "\(name): only deletions")
                #expect(Set(after.changes.map(\.id)) == deletedIDs, "\(name): the expired days and their items")
                #expect(
                    after.changes.allSatisfy { $0.deletedStamp?.node.hasPrefix("web-") == true },
                    "written as the server's device")

                let live = try await SyncAPITests.pull(client, device).changes.filter { !$0.deleted }
                var kept: Set<UUID> = []
                for date in [oldest, middle, today] where !gone.contains(date) {
                    kept.insert(NutritionFields.dayID(scope: scope, date: date))
                    if let item = items[name]?[date] { kept.insert(item) }
                }
                if name != "nozone" { kept.insert(NutritionFields.goalID(scope: scope)) }
                if name == "kiri" { kept.formUnion([meal, ingredient]) }
                #expect(Set(live.map(\.id)) == kept, "\(name): recent days, meals, ingredients and the goal stay")
            }
        }
    }

    /// The window is the server's setting: a day logged 40 days ago under a 90-day window is deleted
    /// by the next day's run once the server restarted with `KITH_NUTRITION_RETENTION_DAYS=30`; the
    /// run stored by the first server is the one the second runs.
    @Test(arguments: Engine.available)
    func theWindowComesFromTheSettingAndTheDailyRunSurvivesARestart(engine: Engine) async throws {
        let clock = TestClock()
        let directory = try makeTemporaryDirectory("kith-retention-start").path
        let scratch = try await PostgresScratch.create(for: engine)
        // The second server makes its ids as server 1: the first one's are in the database.
        func config(days: Int, server: UInt32) throws -> ServerConfig {
            var config = try ServerConfig.fromEnvironment(["KITH_NUTRITION_RETENTION_DAYS": String(days)])
            config.dataDirectory = directory
            config.port = 0
            config.clock = clock.clock
            config.ids = .sequential(server: server)
            config.accounts.bcryptCost = 4
            config.databaseURL = scratch?.url
            JobTesting.configure([])(&config)
            return config
        }
        let today = LocalDate(clock.now, in: NutritionRetentionJob.utc)
        let old = today.adding(days: -40)
        let session: Locked<AuthSessionResponse?> = Locked(nil)
        do {
            let server = try await buildApplication(try config(days: 90, server: 0), logger: Self.quiet)
            try await server.application.test(.router) { client in
                let signedUp = try await client.signUp("ada@example.com")
                session.value = signedUp
                var log = Log(
                    device: SyncAPITests.Device(
                        token: signedUp.accessToken, userID: signedUp.user.id.uuidString.lowercased(),
                        clock: HybridLogicalClock(node: "phone"), now: clock.now.epochMillis))
                let pushed = try await SyncAPITests.push(client, log.device, [log.day(old), log.day(today)])
                #expect(pushed.results.map(\.status) == [.applied, .applied])
                let jobs = JobRepository(database: server.database, ids: .system)
                try await eventually { try await jobs.job(key: "nutrition.retention \(today.adding(days: 1))") != nil }
            }
        }
        clock.advance(by: 86_400)
        do {
            let server = try await buildApplication(try config(days: 30, server: 1), logger: Self.quiet)
            try await server.application.test(.router) { client in
                let signedUp = try #require(session.value)
                let device = try await Self.signedInAgain(
                    SyncAPITests.Device(
                        token: signedUp.accessToken, userID: signedUp.user.id.uuidString.lowercased(),
                        clock: HybridLogicalClock(node: "phone"), now: clock.now.epochMillis),
                    "ada@example.com", client)
                let scope = "user:\(device.userID)"
                try await eventually {
                    let changes = try await SyncAPITests.pull(client, device).changes
                    return changes.first { $0.id == NutritionFields.dayID(scope: scope, date: old) }?.deleted == true
                }
                let changes = try await SyncAPITests.pull(client, device).changes
                #expect(changes.first { $0.id == NutritionFields.dayID(scope: scope, date: today) }?.deleted == false)
            }
        }
        await scratch?.drop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    @Test func theSettingIsRefusedOutsideItsRange() throws {
        for value in ["0", "36501", "-5", "ninety", ""] {
            #expect(throws: ConfigError.self, "\(value)") {
                _ = try ServerConfig.fromEnvironment(["KITH_NUTRITION_RETENTION_DAYS": value])
            }
        }
        do {
            _ = try ServerConfig.fromEnvironment(["KITH_NUTRITION_RETENTION_DAYS": "0"])
        } catch {
            #expect("\(error)" == #"KITH_NUTRITION_RETENTION_DAYS must be a number of days from 1 to 36500, got "0""#)
        }
        #expect(try ServerConfig.fromEnvironment([:]).nutritionRetention.days == 90)
        #expect(
            try ServerConfig.fromEnvironment(["KITH_NUTRITION_RETENTION_DAYS": "36500"]).nutritionRetention.days
                == 36500)
    }
}
