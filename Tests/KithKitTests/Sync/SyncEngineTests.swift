import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithKit

@Suite("Sync engine")
struct SyncEngineTests {
    static func device(_ server: FakeSyncService, configure: (inout SyncEngine.Configuration) -> Void = { _ in }) throws
        -> SyncEngine
    {
        var configuration = SyncEngine.Configuration()
        configure(&configuration)
        return SyncEngine(store: try TestEntities.memoryStore(), service: server, configuration: configuration)
    }

    @Test func aSyncPushesThenPullsAndEndsIdle() async throws {
        let server = FakeSyncService(userID: TestEntities.userID)
        let phone = try Self.device(server)
        let laptop = try Self.device(server)
        for title in ["one", "two", "three"] { try phone.store.save("test.note", fields: ["title": .string(title)]) }

        let pushed = try await phone.sync()
        #expect(pushed.pushed == 3)
        #expect(await phone.status == .idle)
        #expect(try phone.store.pendingCount() == 0)
        #expect(try phone.store.lastSyncAt() != nil)

        let pulled = try await laptop.sync()
        #expect(pulled.pulled == 3)
        #expect(Set(try laptop.store.records("test.note").compactMap { $0.string("title") }) == ["one", "two", "three"])
    }

    @Test func offlineChangesWaitAndGoOutWhenTheServerIsBack() async throws {
        let server = FakeSyncService(userID: TestEntities.userID)
        let phone = try Self.device(server)
        try phone.store.save("test.note", fields: ["title": .string("on the train")])
        try phone.store.save("test.note", fields: ["title": .string("in the tunnel")])
        await server.fail(with: .offline)

        let error = await expectKithError { try await phone.sync() }
        #expect(error == .offline)
        #expect(await phone.status == .offline(pending: 2))
        #expect(try phone.store.pendingCount() == 2)

        await server.fail(with: .server(status: 503, APIErrorDetail(code: "unavailable", message: "down")))
        _ = await expectKithError { try await phone.sync() }
        guard case .error(_, let pending) = await phone.status else {
            Issue.record("a server error shows as an error, not offline")
            return
        }
        #expect(pending == 2)

        await server.fail(with: nil)
        try await phone.sync()
        #expect(await phone.status == .idle)
        #expect(await server.liveRecordCount == 2)
    }

    @Test func aRefusedChangeIsReportedAndNotRetried() async throws {
        let server = FakeSyncService(userID: TestEntities.userID)
        let phone = try Self.device(server)
        var events = await phone.events().makeAsyncIterator()
        try phone.store.save("test.note", fields: ["title": .string("refuse me")])
        try phone.store.save("test.note", fields: ["title": .string("fine")])

        let report = try await phone.sync()
        #expect(report.rejected.map(\.code) == ["validation_failed"])
        #expect(report.pushed == 1)
        #expect(try phone.store.pendingCount() == 0)
        #expect(try phone.store.records("test.note").map { $0.string("title") } == ["fine"])
        #expect(await events.next().map { if case .rejected = $0 { true } else { false } } == true)
        try await phone.sync()
        #expect(await server.pushSizes == [2], "nothing is pushed again")
    }

    @Test func aDeviceDropsAFamilyItNoLongerBelongsToAndPushesNothingOfIt() async throws {
        let server = FakeSyncService(userID: TestEntities.userID)
        let phone = try Self.device(server)
        let family = "family:\(UUID().uuidString.lowercased())"
        let shared = try phone.store.save("test.sharedNote", fields: ["title": .string("groceries")], scope: family)
        try await phone.sync()
        try phone.store.save("test.sharedNote", id: shared, fields: ["title": .string("edited after leaving")])
        try phone.store.save("test.note", fields: ["title": .string("my own")])
        await server.revokeAccess(to: family)

        let report = try await phone.sync()
        #expect(try phone.store.records("test.sharedNote").isEmpty)
        #expect(report.rejected.isEmpty, "the queued edit was dropped before the push, not refused")
        #expect(report.pushed == 1)
        #expect(try phone.store.pendingCount() == 0)
        #expect(try phone.store.records("test.note").count == 1)
    }

    @Test func largeOutboxesGoOutInBatches() async throws {
        let server = FakeSyncService(userID: TestEntities.userID)
        let phone = try Self.device(server)
        try phone.store.write { transaction in
            for index in 0..<1_200 { try transaction.save("test.note", fields: ["title": .string("n\(index)")]) }
        }
        var progress: [Int] = []
        let events = await phone.events()
        try await phone.sync()
        #expect(await server.pushSizes == [500, 500, 200])
        await phone.stop()
        for await event in events {
            if case .pushed(_, let remaining) = event { progress.append(remaining) }
            if progress.count == 3 { break }
        }
        #expect(progress == [700, 200, 0], "upload progress is reported per batch")
    }

    /// Saves `count` notes on the device in one transaction; returns their queued mutations' ids,
    /// oldest first.
    static func queueNotes(_ count: Int, on device: SyncEngine) throws -> [UUID] {
        try device.store.write { transaction in
            for index in 0..<count { try transaction.save("test.note", fields: ["title": .string("n\(index)")]) }
        }
        return try device.store.pendingBatch(limit: 1_000, maxBytes: 1 << 30).map(\.mutationId)
    }

    /// The next batch is read, and sent, while the one before is answered and stored: still one
    /// batch after another, in the order the changes were made, none sent twice.
    @Test func batchesGoOutInOrderAndAFailedOneLeavesOnlyItselfAndLaterOnesQueued() async throws {
        let server = FakeSyncService(userID: TestEntities.userID)
        let phone = try Self.device(server) { $0.pushBatchSize = 100 }
        let queued = try Self.queueNotes(450, on: phone)
        await server.failPushes(after: 2)

        let error = await expectKithError { try await phone.sync() }
        #expect(error == .offline)
        #expect(try phone.store.pendingCount() == 250, "the two answered batches left the outbox")
        #expect(await server.pushSizes == [100, 100, 100], "the third failed; nothing went out after it")
        #expect(try phone.store.pendingBatch(limit: 1_000, maxBytes: 1 << 30).map(\.mutationId) == Array(queued.dropFirst(200)))

        await server.failPushes(after: nil)
        let report = try await phone.sync()
        #expect(report.pushed == 250)
        #expect(await server.pushSizes == [100, 100, 50])
        #expect(await server.pushedIds == queued, "every change once, in the order made")
        #expect(await server.liveRecordCount == 450)
        #expect(try phone.store.pendingCount() == 0)
    }

    @Test func changesABatchLeftUnansweredGoOutAgainBeforeLaterOnes() async throws {
        let server = FakeSyncService(userID: TestEntities.userID)
        let phone = try Self.device(server) { $0.pushBatchSize = 100 }
        let queued = try Self.queueNotes(250, on: phone)
        await server.answerOnly(first: 60)

        let report = try await phone.sync()
        #expect(report.pushed == 250)
        #expect(await server.pushSizes == [100, 100, 100, 70, 10], "each batch begins with the oldest unanswered")
        let answered = await server.pushedIds
        #expect(answered.prefix(100) == queued.prefix(100))
        #expect(answered.dropFirst(100).prefix(100) == queued.dropFirst(60).prefix(100))
        #expect(await server.liveRecordCount == 250)
        #expect(try phone.store.pendingCount() == 0)
    }

    /// Pages are asked for while the one before is stored: the same pages in the same order as
    /// one at a time, and a page that fails to arrive keeps every page before it.
    @Test func aPullOfManyPagesBringsEveryRecordAndResumesWhereItFailed() async throws {
        let server = FakeSyncService(userID: TestEntities.userID)
        for index in 0..<25 {
            var record = SyncRecord(entity: "test.note", id: UUID(), scope: TestEntities.scope)
            record.merge(
                Mutation(
                    mutationId: UUID(), entity: "test.note", id: record.id, scope: TestEntities.scope, op: .upsert,
                    fields: ["title": .string("n\(index)")], hlc: HLC(wallMillis: 1_000 + Int64(index), counter: 0, node: "server")))
            await server.serverWrite(record)
        }
        let laptop = try Self.device(server) { $0.pullPageSize = 10 }
        await server.failPulls(after: 2)
        _ = await expectKithError { try await laptop.sync() }
        #expect(try laptop.store.records("test.note").count == 20, "the two pages that came are kept")
        #expect(try laptop.store.cursor() == "20")

        await server.failPulls(after: nil)
        let pulled = try await laptop.sync()
        #expect(pulled.pulled == 5)
        let resumed = await server.pullCursors
        #expect(resumed == ["20", "25"], "from where it stopped; then again after the (empty) push")
        #expect(try laptop.store.records("test.note").count == 25)

        let phone = try Self.device(server) { $0.pullPageSize = 10 }
        await server.failPulls(after: nil)
        #expect(try await phone.sync().pulled == 25)
        let firstPull = await server.pullCursors
        #expect(firstPull == [nil, "10", "20", "25"])
        #expect(try phone.store.cursor() == "25")
    }

    @Test func aStoreOfAnotherAccountDoesNotSync() async throws {
        let server = FakeSyncService(userID: UUID())
        let phone = try Self.device(server)
        try phone.store.save("test.note", fields: ["title": .string("private")])
        _ = await expectKithError { try await phone.sync() }
        #expect(await server.pushSizes.isEmpty)

        await server.setUser(nil)
        #expect(await expectKithError { try await phone.sync() } == .notSignedIn)
    }

    @Test func aStartedEngineSyncsALocalWriteOnItsOwn() async throws {
        let server = FakeSyncService(userID: TestEntities.userID)
        let phone = try Self.device(server) { $0.pollInterval = .seconds(600) }
        await phone.start()
        try phone.store.save("test.note", fields: ["title": .string("no button pressed")])
        // Generous: the full suite shares two cores with servers and child processes.
        try await eventually(within: .seconds(60)) { await server.liveRecordCount == 1 }
        await phone.stop()
    }

    @Test func retryNowSkipsTheBackoffWait() async throws {
        let server = FakeSyncService(userID: TestEntities.userID)
        await server.fail(with: .offline)
        let phone = try Self.device(server) {
            $0.pollInterval = .seconds(600)
            $0.backoff = Backoff(base: .seconds(600), cap: .seconds(600))
        }
        try phone.store.save("test.note", fields: ["title": .string("waiting")])
        await phone.start()
        try await eventually(within: .seconds(60)) { await phone.status == .offline(pending: 1) }
        await server.fail(with: nil)
        await phone.retryNow()
        // Far less than the 10-minute backoff, even on a loaded machine.
        try await eventually(within: .seconds(60)) { await phone.status == .idle }
        #expect(await server.liveRecordCount == 1)
        await phone.stop()
    }

    @Test func backoffGrowsWithJitterUpToItsCap() {
        let backoff = Backoff(base: .seconds(1), cap: .seconds(60))
        #expect(backoff.delay(afterFailures: 0) == .zero)
        #expect(backoff.delay(afterFailures: 1, random: 1) == .seconds(1))
        #expect(backoff.delay(afterFailures: 1, random: 0) == .milliseconds(500))
        #expect(backoff.delay(afterFailures: 4, random: 1) == .seconds(8))
        #expect(backoff.delay(afterFailures: 50, random: 1) == .seconds(60))
        #expect(backoff.delay(afterFailures: 50, random: 0) == .seconds(30))
        let spread = Set((0..<20).map { _ in backoff.delay(afterFailures: 5) })
        #expect(spread.count > 1, "two devices failing together do not retry in step")
    }

    @Test func statusSummariesReadWell() {
        #expect(SyncStatus.idle.summary == "Synced")
        #expect(SyncStatus.syncing(pending: 1).summary == "Syncing 1 change…")
        #expect(SyncStatus.offline(pending: 3).summary == "Offline, 3 changes waiting")
        #expect(SyncStatus.error(message: "Boom.", pending: 0).summary == "Sync failed: Boom.")
    }
}

extension FakeSyncService {
    func setUser(_ id: UUID?) { userID = id }
}

@Suite("Sync model (for SwiftUI)")
@MainActor
struct SyncModelTests {
    @Test func followsTheEngineAndListsRefusedChanges() async throws {
        let server = FakeSyncService(userID: TestEntities.userID)
        let engine = SyncEngine(store: try TestEntities.memoryStore(), service: server)
        let model = SyncModel(engine: engine)
        try engine.store.save("test.note", fields: ["title": .string("refuse me")])
        await server.fail(with: .offline)
        _ = try? await engine.sync()
        try await eventually { await MainActor.run { model.status == .offline(pending: 1) } }
        await server.fail(with: nil)
        try await engine.sync()
        try await eventually { await MainActor.run { model.status == .idle && model.rejections.count == 1 } }
        model.dismissRejections()
        #expect(model.rejections.isEmpty)
        #expect(try engine.store.rejections().isEmpty)
    }
}
