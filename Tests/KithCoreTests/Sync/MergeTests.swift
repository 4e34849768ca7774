import Foundation
import KithCore
import Testing

@Suite("Merge rule")
struct MergeTests {
    let id = UUID()

    func upsert(_ fields: [String: JSONTree], at wall: Int64, counter: Int = 0, node: String = "a") -> Mutation {
        Mutation(
            mutationId: UUID(), entity: "test.note", id: id, scope: "user:u", op: .upsert, fields: fields,
            hlc: HLC(wallMillis: wall, counter: counter, node: node))
    }

    func delete(at wall: Int64, node: String = "a") -> Mutation {
        Mutation(
            mutationId: UUID(), entity: "test.note", id: id, scope: "user:u", op: .delete,
            hlc: HLC(wallMillis: wall, counter: 0, node: node))
    }

    @Test func eachFieldKeepsItsLatestWrite() {
        var record = SyncRecord(entity: "test.note", id: id, scope: "user:u")
        #expect(record.merge(upsert(["title": .string("new"), "done": .bool(true)], at: 20)) == .changed)
        #expect(record.merge(upsert(["title": .string("old"), "comment": .string("kept")], at: 10)) == .changed)
        #expect(record.fields == ["title": .string("new"), "done": .bool(true), "comment": .string("kept")])
        #expect(record.merge(upsert(["title": .string("old")], at: 10)) == .superseded)
    }

    @Test func equalWallTimesAreDecidedByCounterThenNode() {
        var record = SyncRecord(entity: "test.note", id: id, scope: "user:u")
        record.merge(upsert(["title": .string("from b")], at: 10, node: "b"))
        record.merge(upsert(["title": .string("from a")], at: 10, node: "a"))
        #expect(record.fields["title"] == .string("from b"))
        record.merge(upsert(["title": .string("from a, later counter")], at: 10, counter: 1, node: "a"))
        #expect(record.fields["title"] == .string("from a, later counter"))
    }

    @Test func deletionWinsOverLaterAndEarlierEdits() {
        var record = SyncRecord(entity: "test.note", id: id, scope: "user:u")
        record.merge(upsert(["title": .string("x")], at: 10))
        #expect(record.merge(delete(at: 20)) == .changed)
        #expect(record.merge(upsert(["title": .string("stale edit")], at: 30)) == .ignoredDeleted)
        #expect(record.isDeleted)
        #expect(record.fields.isEmpty)
        #expect(record.merge(delete(at: 40)) == .superseded)
        #expect(record.merge(delete(at: 15)) == .changed, "the earliest delete is kept")
        #expect(record.deleted == HLC(wallMillis: 15, counter: 0, node: "a"))
    }

    @Test func theLatestStampIsTheLatestOfItsFieldsAndItsDeletion() {
        var record = SyncRecord(entity: "test.note", id: id, scope: "user:u")
        #expect(record.latestStamp == nil)
        record.merge(upsert(["title": .string("x")], at: 30))
        record.merge(upsert(["done": .bool(true)], at: 10))
        #expect(record.latestStamp == HLC(wallMillis: 30, counter: 0, node: "a"))
        var gone = SyncRecord(entity: "test.note", id: id, scope: "user:u")
        gone.stamps = ["title": HLC(wallMillis: 5, counter: 0, node: "a")]
        gone.deleted = HLC(wallMillis: 20, counter: 0, node: "b")
        #expect(gone.latestStamp == HLC(wallMillis: 20, counter: 0, node: "b"))
    }
}
