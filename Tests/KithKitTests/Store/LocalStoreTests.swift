import Foundation
import GRDB
import KithCore
import KithTestSupport
import Testing

@testable import KithKit

@Suite("Local store")
struct LocalStoreTests {
    @Test func aSaveIsReadableAndQueuedForUpload() async throws {
        let store = try TestEntities.memoryStore()
        let id = try store.save("test.note", fields: ["title": .string("Buy milk"), "rank": .double(3)])
        let record = try #require(try store.record("test.note", id: id))
        #expect(record.string("title") == "Buy milk")
        #expect(record.number("rank") == 3)
        #expect(record.scope == TestEntities.scope)
        #expect(try store.pendingCount() == 1)

        try store.save("test.note", id: id, fields: ["done": .bool(true)])
        let updated = try #require(try store.record("test.note", id: id))
        #expect(updated.bool("done") == true)
        #expect(updated.string("title") == "Buy milk", "an update keeps the fields it does not name")
        #expect(try store.pendingCount() == 2)
    }

    @Test func aBadWriteIsRefusedAndChangesNothing() async throws {
        let store = try TestEntities.memoryStore()
        let missing = try #require(await expectKithError { try store.save("test.note", fields: ["done": .bool(true)]) })
        #expect(missing.field == "title")
        let tooLong = try #require(
            await expectKithError { try store.save("test.note", fields: ["title": .string(String(repeating: "x", count: 51))]) })
        #expect(tooLong.userMessage.contains("50"))
        let unknown = try #require(await expectKithError { try store.save("test.nothing", fields: [:]) })
        #expect(unknown.code == .unknownEntity && unknown.userMessage.contains("test.nothing"))
        #expect(try store.records("test.note").isEmpty)
        #expect(try store.pendingCount() == 0)
    }

    @Test func aTransactionCommitsWhollyOrNotAtAll() async throws {
        let store = try TestEntities.memoryStore()
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try store.write { transaction in
                try transaction.save("test.note", fields: ["title": .string("one")])
                try transaction.save("test.note", fields: ["title": .string("two")])
                throw Stop()
            }
        }
        #expect(try store.records("test.note").isEmpty)
        #expect(try store.pendingCount() == 0)
        try store.write { transaction in
            try transaction.save("test.note", fields: ["title": .string("one")])
            try transaction.save("test.note", fields: ["title": .string("two")])
        }
        #expect(try store.records("test.note").count == 2)
        #expect(try store.pendingCount() == 2)
    }

    @Test func aDeletedRecordLeavesTheTableAndCannotBeEdited() async throws {
        let store = try TestEntities.memoryStore()
        let id = try store.save("test.note", fields: ["title": .string("gone soon")])
        try store.delete("test.note", id: id)
        #expect(try store.record("test.note", id: id) == nil)
        #expect(try store.records("test.note").isEmpty)
        let error = try #require(await expectKithError { try store.save("test.note", id: id, fields: ["title": .string("back")]) })
        #expect(error.code == .deleted && error.userMessage == "This record was deleted.")
        #expect(try store.pendingCount() == 2, "the creation and the deletion are queued")
    }

    /// A device killed before its push: the outbox was written with the record, so reopening the
    /// file finds both, with nothing closed or flushed in between.
    @Test func queuedChangesSurviveReopening() async throws {
        let directory = try makeTemporaryDirectory("kith-store")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("user.sqlite")
        let id: UUID
        let clientId: UUID
        do {
            let store = try LocalStore(url: file, catalog: TestEntities.catalog, userScope: TestEntities.scope)
            id = try store.save("test.note", fields: ["title": .string("written offline")])
            clientId = store.clientId
        }
        let reopened = try LocalStore(url: file, catalog: TestEntities.catalog, userScope: TestEntities.scope)
        #expect(try reopened.record("test.note", id: id)?.string("title") == "written offline")
        #expect(try reopened.pendingCount() == 1)
        #expect(reopened.clientId == clientId, "a device keeps its id")
        #expect(throws: KithError.self) {
            try LocalStore(url: file, catalog: TestEntities.catalog, userScope: "user:\(UUID().uuidString.lowercased())")
        }
    }

    @Test func aNewlyDeclaredFieldAddsItsColumn() async throws {
        let directory = try makeTemporaryDirectory("kith-store")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("user.sqlite")
        let id = try LocalStore(url: file, catalog: TestEntities.catalog, userScope: TestEntities.scope)
            .save("test.note", fields: ["title": .string("old")])
        var note = TestEntities.note
        note.fields.append(FieldDeclaration("colour", .string(maxLength: 10), optional: true))
        let store = try LocalStore(url: file, catalog: EntityCatalog([note]), userScope: TestEntities.scope)
        try store.save("test.note", id: id, fields: ["colour": .string("blue")])
        let record = try #require(try store.record("test.note", id: id))
        #expect(record.string("title") == "old")
        #expect(record.string("colour") == "blue")
    }

    @Test func observersSeeEveryChange() async throws {
        let store = try TestEntities.memoryStore()
        var titles = store.observeRecords("test.note").makeAsyncIterator()
        #expect(try await titles.next()?.isEmpty == true)
        try store.save("test.note", fields: ["title": .string("seen")])
        let next = try await titles.next()
        #expect(next?.map { $0.string("title") } == ["seen"])
    }

    @Test func appsQueryEntityTablesWithSQL() async throws {
        let store = try TestEntities.memoryStore()
        for (title, rank) in [("b", 2), ("a", 1), ("c", 3)] {
            try store.save("test.note", fields: ["title": .string(title), "rank": .double(Double(rank))])
        }
        let titles = try await store.reader.read { db in
            try String.fetchAll(db, sql: "SELECT title FROM test_note WHERE rank >= 2 ORDER BY rank")
        }
        #expect(titles == ["b", "c"])
    }
}
