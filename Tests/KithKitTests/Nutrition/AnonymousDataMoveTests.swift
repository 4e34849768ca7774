import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithKit

/// Seed 002 req. 9 and the "moving in": data made before an account exists moves into it
/// with progress, retries by itself, confirms, and merges days the account already has.
@Suite("Moving anonymous data into an account")
@MainActor
struct AnonymousDataMoveTests {
    nonisolated static let noon = Date(timeIntervalSince1970: 1_795_521_600)

    @Test func theMoveReportsProgressRetriesAndMergesDaysTheAccountHas() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = LocalStoreDirectory(url: folder, now: { Self.noon }, timeZone: NutritionStoreTests.paris)
        let anonymous = NutritionStore(store: try directory.anonymousStore(), now: { Self.noon })
        try anonymous.log(Food(name: "Apple", calories: 95))
        try anonymous.createMeal(name: "Snack", ingredients: [Food(name: "Nuts", calories: 180)])
        let old = try #require(LocalDate("2026-11-20"))
        try anonymous.log(Food(name: "Pasta", calories: 600), on: old)

        // The account already has today, logged on another device.
        let user = UUID()
        let server = FakeSyncService(userID: user)
        let other = NutritionStore(
            store: try LocalStore(url: nil, catalog: .kith, userScope: "user:\(user.lowercased)", now: { Self.noon }, timeZone: NutritionStoreTests.paris),
            now: { Self.noon })
        try other.log(Food(name: "Bread", calories: 80))
        try await SyncEngine(store: other.store, service: server).sync()

        await server.fail(with: .offline)
        let account = try directory.store(forUser: user)
        let engine = SyncEngine(store: account, service: server)
        let move = AnonymousDataMove(directory: directory, engine: engine, backoff: Backoff(base: .milliseconds(20), cap: .milliseconds(50)))
        let running = Task { try await move.run() }
        try await eventually { // the first upload fails and is retried
            if case .retrying(0, _, _) = move.phase { return true }
            return false
        }
        #expect(try directory.anonymousRecordCount() == 0, "adopted locally at once; nothing is lost")
        #expect(try account.pendingCount() == 6, "and queued: two days, two items, a meal, an ingredient")
        await server.fail(with: nil)
        let phase = try await running.value
        #expect(phase == .finished(total: 6))

        try await SyncEngine(store: other.store, service: server).sync()
        other.refresh()
        #expect(other.day.items.map(\.food.name).sorted() == ["Apple", "Bread"], "one day with the items of both")
        #expect(try other.store.records(NutritionEntities.day.name).count == 2, "today (merged) and the 20th")
        #expect(other.meals.map(\.name) == ["Snack"])
    }

    @Test func dataTheRulesWouldNowRefuseIsQueuedForTheServerToJudgeNotDropped() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = TestClock(Self.noon)
        let directory = LocalStoreDirectory(url: folder, now: { clock.now }, timeZone: NutritionStoreTests.paris)
        let anonymous = NutritionStore(store: try directory.anonymousStore(), now: { clock.now })
        try anonymous.log(Food(name: "Apple", calories: 95))
        clock.advance(by: 100 * 86_400)  // the day left the window before the person signed up
        let account = try directory.store(forUser: UUID())
        #expect(try directory.adoptAnonymousData(into: account) == 2)
        #expect(try account.pendingCount() == 2, "the day and its item wait for the server's verdict")
    }

    @Test func nothingToMoveSaysSo() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = LocalStoreDirectory(url: folder)
        let user = UUID()
        let engine = SyncEngine(store: try directory.store(forUser: user), service: FakeSyncService(userID: user))
        #expect(try await AnonymousDataMove(directory: directory, engine: engine).run() == .nothingToMove)
    }
}
