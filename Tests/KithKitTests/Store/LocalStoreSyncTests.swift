import Foundation
import GRDB
import KithCore
import KithTestSupport
import Testing

@testable import KithKit

/// How the store takes pulled changes and push answers: the same merge as the server, so a device
/// shows what the server will hold once its queued changes arrive.
@Suite("Local store sync bookkeeping")
struct LocalStoreSyncTests {
    static func change(_ id: UUID, _ fields: [String: JSONTree], at wall: Int64, node: String = "other", seq: Int64 = 1)
        -> ChangeDTO
    {
        var record = SyncRecord(entity: "test.note", id: id, scope: TestEntities.scope)
        let stamp = HLC(wallMillis: wall, counter: 0, node: node)
        record.merge(Mutation(mutationId: UUID(), entity: "test.note", id: id, scope: TestEntities.scope, op: .upsert, fields: fields, hlc: stamp))
        return ChangeDTO(record: record, seq: seq)
    }

    static func millis(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970 * 1000) }

    @Test func aPulledChangeArrivesAndMovesTheCursor() async throws {
        let store = try TestEntities.memoryStore()
        let id = UUID()
        let changed = try store.apply(
            PullResponse(changes: [Self.change(id, ["title": .string("from elsewhere")], at: 1_000)], cursor: "c1", hasMore: false))
        #expect(changed.changes == [RecordChange(entity: "test.note", id: id, deleted: false)])
        #expect(changed.conflicts.isEmpty, "nothing of this device's was waiting")
        #expect(try store.record("test.note", id: id)?.string("title") == "from elsewhere")
        #expect(try store.cursor() == "c1")
        #expect(try store.pendingCount() == 0, "pulled changes are not queued for upload")
    }

    @Test func aLocalEditMadeAfterAPulledOneWinsAndAnOlderOneLoses() async throws {
        let now = Date()
        let store = try TestEntities.memoryStore(now: { now })
        let id = try store.save("test.note", fields: ["title": .string("mine"), "rank": .double(1)])
        // Another device wrote the title earlier than this device (older stamp) and the rank later.
        let older = Self.change(id, ["title": .string("theirs")], at: Self.millis(now) - 60_000)
        let newer = Self.change(id, ["rank": .double(9)], at: Self.millis(now) + 60_000, seq: 2)
        let pulled = try store.apply(PullResponse(changes: [older, newer], cursor: "c2", hasMore: false))
        // Both fields were waiting to be sent: the title stayed this device's, the rank became theirs.
        #expect(pulled.conflicts.map(\.keptLocal) == [["title"], []])
        #expect(pulled.conflicts.map(\.keptRemote) == [[], ["rank"]])
        let record = try #require(try store.record("test.note", id: id))
        #expect(record.string("title") == "mine")
        #expect(record.number("rank") == 9)
        #expect(try store.pendingCount() == 1, "the local edit is still queued")

        // The next local edit stamps after everything seen, even with a clock behind the other device's.
        try store.save("test.note", id: id, fields: ["rank": .double(10)])
        _ = try store.apply(PullResponse(changes: [newer], cursor: "c3", hasMore: false))
        #expect(try store.record("test.note", id: id)?.number("rank") == 10)
    }

    @Test func aPulledDeletionRemovesTheRecordForGood() async throws {
        let store = try TestEntities.memoryStore()
        let id = try store.save("test.note", fields: ["title": .string("soon gone")])
        var tombstone = SyncRecord(entity: "test.note", id: id, scope: TestEntities.scope)
        tombstone.deleted = HLC(wallMillis: 1, counter: 0, node: "other")
        let pulled = try store.apply(PullResponse(changes: [ChangeDTO(record: tombstone, seq: 5)], cursor: "c", hasMore: false))
        #expect(pulled.conflicts.map(\.deletedElsewhere) == [true], "the unsent creation met a deletion")
        #expect(try store.record("test.note", id: id) == nil, "a deletion wins even over a later local edit")
        let late = Self.change(id, ["title": .string("revived?")], at: Self.millis(Date()) + 1_000_000, seq: 6)
        _ = try store.apply(PullResponse(changes: [late], cursor: "c", hasMore: false))
        #expect(try store.record("test.note", id: id) == nil)
    }

    @Test func aPageThatBringsARecordTwiceKeepsWhatEachBrought() async throws {
        let store = try TestEntities.memoryStore()
        let id = UUID()
        let first = Self.change(id, ["title": .string("named")], at: 1_000)
        let second = Self.change(id, ["rank": .double(3)], at: 2_000, seq: 2)
        _ = try store.apply(PullResponse(changes: [first, second], cursor: "c1", hasMore: false))
        let record = try #require(try store.record("test.note", id: id))
        #expect(record.string("title") == "named")
        #expect(record.number("rank") == 3)
    }

    /// Records held here are read for a page a few hundred at a time: every one of a page larger
    /// than that is merged with what this device holds, not written over.
    @Test func aLargePageMergesWithEveryRecordHeldHere() async throws {
        let store = try TestEntities.memoryStore()
        let ids = (0..<1_100).map { _ in UUID() }
        _ = try store.apply(
            PullResponse(changes: ids.map { Self.change($0, ["title": .string("newer")], at: 5_000) }, cursor: "c1", hasMore: false))
        let older = ids.map { Self.change($0, ["title": .string("older"), "rank": .double(1)], at: 1_000, seq: 2) }
        _ = try store.apply(PullResponse(changes: older, cursor: "c2", hasMore: false))
        for id in [ids[0], ids[499], ids[500], ids[1_099]] {
            let record = try #require(try store.record("test.note", id: id))
            #expect(record.string("title") == "newer", "the later title stays")
            #expect(record.number("rank") == 1, "a field only the older change wrote arrives")
        }
    }

    @Test func changesOfUndeclaredEntitiesAreSkipped() async throws {
        let store = try TestEntities.memoryStore()
        var stranger = Self.change(UUID(), ["title": .string("x")], at: 1)
        stranger.entity = "future.thing"
        #expect(try store.apply(PullResponse(changes: [stranger], cursor: "c9", hasMore: false)).changes.isEmpty)
        #expect(try store.cursor() == "c9")
    }

    @Test func acknowledgedChangesLeaveTheOutbox() async throws {
        let store = try TestEntities.memoryStore()
        try store.save("test.note", fields: ["title": .string("a")])
        try store.save("test.note", fields: ["title": .string("b")])
        let batch = try store.pendingBatch(limit: 500, maxBytes: 1 << 20)
        #expect(batch.count == 2)
        let rejections = try store.complete(
            PushResponse(
                results: [
                    MutationResult(mutationId: batch[0].mutationId, status: .applied),
                    MutationResult(mutationId: batch[1].mutationId, status: .duplicate),
                ], cursor: "")
        ).rejections
        #expect(rejections.isEmpty)
        #expect(try store.pendingCount() == 0)
        #expect(try store.records("test.note").count == 2)
    }

    @Test func aRefusedCreationIsUndoneAndReported() async throws {
        let store = try TestEntities.memoryStore()
        let id = try store.save("test.note", fields: ["title": .string("not allowed")])
        let batch = try store.pendingBatch(limit: 500, maxBytes: 1 << 20)
        let rejections = try store.complete(
            PushResponse(
                results: [MutationResult(mutationId: batch[0].mutationId, status: .rejected, code: "forbidden", message: "No.")],
                cursor: "")
        ).rejections
        #expect(rejections.map(\.code) == ["forbidden"])
        #expect(try store.record("test.note", id: id) == nil)
        #expect(try store.pendingCount() == 0, "a refused change is not retried")
        #expect(try store.rejections().map(\.recordId) == [id])
        try store.clearRejections()
        #expect(try store.rejections().isEmpty)
    }

    @Test func aRefusedEditFallsBackToTheServerStateWithOtherQueuedEditsOnTop() async throws {
        let store = try TestEntities.memoryStore()
        let id = UUID()
        let server = Self.change(id, ["title": .string("server title"), "rank": .double(1)], at: 1_000)
        _ = try store.apply(PullResponse(changes: [server], cursor: "c", hasMore: false))
        try store.save("test.note", id: id, fields: ["title": .string("refused title")])
        try store.save("test.note", id: id, fields: ["rank": .double(2)])
        let batch = try store.pendingBatch(limit: 1, maxBytes: 1 << 20)
        _ = try store.complete(
            PushResponse(
                results: [
                    MutationResult(
                        mutationId: batch[0].mutationId, status: .rejected, code: "validation_failed", message: "Bad.", record: server)
                ], cursor: ""))
        let record = try #require(try store.record("test.note", id: id))
        #expect(record.string("title") == "server title")
        #expect(record.number("rank") == 2, "the other queued edit still shows")
        #expect(try store.pendingCount() == 1)
    }

    @Test func batchesRespectTheCountAndSizeLimits() async throws {
        let store = try TestEntities.memoryStore()
        try store.write { transaction in
            for index in 0..<30 { try transaction.save("test.note", fields: ["title": .string("note \(index)")]) }
        }
        #expect(try store.pendingBatch(limit: 10, maxBytes: 1 << 20).count == 10)
        #expect(try store.pendingBatch(limit: 500, maxBytes: 700).count == 2, "about 320 bytes each")
        #expect(try store.pendingBatch(limit: 500, maxBytes: 1).count == 1, "never an empty batch while changes wait")
        let all = try store.pendingBatch(limit: 500, maxBytes: 1 << 20)
        #expect(all.map { $0.fields["title"] } == (0..<30).map { .string("note \($0)") }, "oldest first")
    }

    @Test func aGoneScopeLosesItsRecordsAndQueuedChangesWithThePage() async throws {
        let store = try TestEntities.memoryStore()
        let left = "family:\(UUID().uuidString.lowercased())"
        let kept = "family:\(UUID().uuidString.lowercased())"
        let own = try store.save("test.note", fields: ["title": .string("mine")])
        let leftNote = try store.save("test.sharedNote", fields: ["title": .string("theirs")], scope: left)
        let deletedThere = try store.save("test.sharedNote", fields: ["title": .string("deleted")], scope: left)
        try store.delete("test.sharedNote", id: deletedThere)
        let keptNote = try store.save("test.sharedNote", fields: ["title": .string("still ours")], scope: kept)
        let arriving = Self.change(UUID(), ["title": .string("new")], at: 1_000)

        let pulled = try store.apply(PullResponse(changes: [arriving], cursor: "c7", hasMore: false, gone: [left]))

        #expect(try store.record("test.sharedNote", id: leftNote) == nil)
        #expect(pulled.changes.contains(RecordChange(entity: "test.sharedNote", id: leftNote, deleted: true)))
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_tombstones WHERE scope = ?", arguments: [left]) } == 0)
        #expect(try store.pendingBatch(limit: 500, maxBytes: 1 << 20).allSatisfy { $0.scope != left }, "nothing of it is pushed")
        #expect(try store.pendingCount() == 2, "the own note and the other family's note are still queued")
        #expect(try store.record("test.note", id: own) != nil)
        #expect(try store.record("test.sharedNote", id: keptNote) != nil)
        #expect(try store.record("test.note", id: arriving.id) != nil, "the page's changes are applied too")
        #expect(try store.cursor() == "c7")
    }

    @Test func aServerSayingTheAccountsOwnScopeIsGoneIsIgnored() async throws {
        let store = try TestEntities.memoryStore()
        let own = try store.save("test.note", fields: ["title": .string("mine")])
        _ = try store.apply(PullResponse(changes: [], cursor: "c8", hasMore: false, gone: [TestEntities.scope]))
        #expect(try store.record("test.note", id: own) != nil)
        #expect(try store.pendingCount() == 1)
    }

    /// Another account may give a family record the id of one of this account's own records (the
    /// server keys records by scope and id). The device keeps them apart: a deletion, a queued
    /// change or a refusal of one never touches the other.
    @Test func aFamilyRecordWithTheIdOfAnOwnRecordStaysApart() async throws {
        let store = try TestEntities.memoryStore()
        let family = "family:\(UUID().uuidString.lowercased())"
        let id = try store.save("test.note", fields: ["title": .string("mine")])
        var theirs = SyncRecord(entity: "test.sharedNote", id: id, scope: family)
        theirs.merge(
            Mutation(
                mutationId: UUID(), entity: "test.sharedNote", id: id, scope: family, op: .upsert,
                fields: ["title": .string("theirs")], hlc: HLC(wallMillis: 1_000, counter: 0, node: "other")))
        _ = try store.apply(PullResponse(changes: [ChangeDTO(record: theirs, seq: 1)], cursor: "c1", hasMore: false))
        try store.delete("test.sharedNote", id: id)
        #expect(try store.record("test.note", id: id)?.string("title") == "mine", "deleting theirs left mine")
        try store.save("test.note", id: id, fields: ["title": .string("mine, edited")])

        // The server refuses the family deletion; the own note's queued edits are not merged into it.
        let queued = try store.pendingBatch(limit: 500, maxBytes: 1 << 20)
        let deletion = try #require(queued.first { $0.entity == "test.sharedNote" })
        _ = try store.complete(
            PushResponse(
                results: [
                    MutationResult(
                        mutationId: deletion.mutationId, status: .rejected, code: "not_allowed", message: "No.",
                        record: ChangeDTO(record: theirs, seq: 1))
                ], cursor: ""))
        #expect(try store.record("test.sharedNote", id: id)?.string("title") == "theirs", "theirs is back as the server has it")
        #expect(try store.record("test.sharedNote", id: id)?.fields["done"] == nil)
        #expect(try store.record("test.note", id: id)?.string("title") == "mine, edited")
        #expect(try store.pendingBatch(limit: 500, maxBytes: 1 << 20).map(\.entity) == ["test.note", "test.note"])
    }

    /// A device whose clock ran ahead keeps its changes: refused for the clock, they stay queued,
    /// re-stamped by the server's time, each still after the stamps the device already held.
    @Test func changesRefusedForTheClockAreReStampedNotDropped() async throws {
        let twoDays: TimeInterval = 2 * 24 * 3600
        let realNow = Date()
        let ahead = Locked(twoDays)
        let store = try TestEntities.memoryStore(now: { realNow.addingTimeInterval(ahead.value) })
        // Another device's change, its clock two minutes ahead (the server takes up to five).
        let pulled = Self.change(UUID(), ["title": .string("pulled")], at: Self.millis(realNow) + 120_000)
        _ = try store.apply(PullResponse(changes: [pulled], cursor: "c1", hasMore: false))
        let id = try store.save("test.note", fields: ["title": .string("written ahead")])
        try store.save("test.note", id: pulled.id, fields: ["title": .string("edited ahead")])
        ahead.value = 0
        try store.save("test.note", id: id, fields: ["rank": .double(3)])
        let queued = try store.pendingBatch(limit: 500, maxBytes: 1 << 20)
        #expect(queued.allSatisfy { $0.hlc.wallMillis > Self.millis(realNow) + 3600_000 }, "the clock stayed ahead")

        let serverTime = Self.millis(realNow)
        let completion = try store.complete(
            PushResponse(
                results: queued.map {
                    MutationResult(mutationId: $0.mutationId, status: .rejected, code: "clock_skew", message: "Ahead.")
                }, cursor: "", serverTime: serverTime))
        #expect(completion.rejections.isEmpty && completion.heldBack == 3 && completion.restamped == 3)
        #expect(try store.rejections().isEmpty)
        let again = try store.pendingBatch(limit: 500, maxBytes: 1 << 20)
        #expect(again.map(\.mutationId) == queued.map(\.mutationId), "the same changes, in the same order")
        #expect(again.allSatisfy { $0.hlc.wallMillis <= serverTime + 120_000 }, "stamped by the server's time")
        #expect(zip(again, again.dropFirst()).allSatisfy { $0.hlc < $1.hlc })
        #expect(
            again.allSatisfy { $0.hlc > pulled.stamps["title"]! },
            "after every stamp the device saw, the pulled one its own edit replaced too")
        let note = try #require(try store.record("test.note", id: id))
        #expect(note.string("title") == "written ahead" && note.number("rank") == 3)
        let stamps = try store.read { db in
            try String.fetchAll(db, sql: "SELECT _stamps FROM test_note").compactMap(FieldStamps.parse).flatMap(\.values)
        }
        #expect(stamps.allSatisfy { $0.wallMillis <= serverTime + 120_000 }, "no record keeps a stamp from two days ahead")
        // The next change is stamped after them, by the device's own clock again.
        try store.save("test.note", id: id, fields: ["title": .string("later")])
        let last = try #require(try store.pendingBatch(limit: 500, maxBytes: 1 << 20).last)
        #expect(last.hlc > again.last!.hlc)
    }
}
