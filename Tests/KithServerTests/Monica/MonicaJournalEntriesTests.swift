import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// What Monica's journal API test asserts, the day an entry is about (Kith's `date`), and isolation.
@Suite("Monica API: journal entries")
struct MonicaJournalEntriesTests {
    static let fields = [
        "id", "uuid", "object", "title", "post", "date", "url", "account.id", "created_at", "updated_at",
    ]

    static func paths(_ prefix: String) -> [String] { fields.map { prefix + $0 } }

    @Test(arguments: Engine.available)
    func entriesAreListedShownMadeChangedAndDeleted(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            let created = try await me.post("/api/journal", ["title": "my title", "post": "content post"])
            #expect(created.status == .created)
            expectStructure(created.json, Self.paths("data."))
            let entry = try #require(created.dataID)
            #expect(entry > 0)
            expectFragment(
                created, [("object", "entry"), ("id", .int(entry)), ("title", "my title"), ("post", "content post")])
            // Without a day, an entry is about the day it was written; Monica's Carbon date, as JSON writes it.
            #expect(created.data?["date"] == "2018-01-01T00:00:00.000000Z")
            let second = try #require(
                try await me.post("/api/journal", ["title": "x", "post": "y", "date": "2017-12-24"]).dataID)

            let all = try await me.get("/api/journal")
            #expect(all.status == .ok)
            expectStructure(all.json, Self.paths("data.*."))
            expectFragment(all, [("object", "entry"), ("id", .int(entry))])
            expectFragment(all, [("object", "entry"), ("id", .int(second))])
            #expect(ids(all) == [entry, second])
            expectFragment(
                try await me.get("/api/journal?limit=1"), [("total", 2), ("per_page", 1), ("last_page", 2)])

            let one = try await me.get("/api/journal/\(entry)")
            #expect(one.status == .ok)
            expectStructure(one.json, Self.paths("data."))
            expectFragment(one, [("object", "entry"), ("id", .int(entry))])
            expectMissing(one, [("object", "entry"), ("id", .int(second))])
            #expect(try await me.get("/api/journal/\(second)").data?["date"] == "2017-12-24T00:00:00.000000Z")
            expectNotFound(try await me.get("/api/journal/0"))

            let updated = try await me.put("/api/journal/\(entry)", ["title": "my new title", "post": "new post"])
            #expect(updated.status == .ok)
            expectStructure(updated.json, Self.paths("data."))
            #expect(updated.dataID == entry)
            expectFragment(
                updated, [("object", "entry"), ("id", .int(entry)), ("title", "my new title"), ("post", "new post")])
            #expect(updated.data?["date"] == "2018-01-01T00:00:00.000000Z", "a change without a day keeps the entry's")
            let moved = try await me.put("/api/journal/\(entry)", ["title": "t", "post": "p", "date": "2017-06-01"])
            #expect(moved.data?["date"] == "2017-06-01T00:00:00.000000Z")
            #expect(try await me.get("/api/journal/\(entry)").data?["title"] == "t")

            let deleted = try await me.delete("/api/journal/\(entry)")
            #expect(deleted.status == .ok)
            #expect(deleted.json == ["deleted": true, "id": .int(entry)])
            expectNotFound(try await me.get("/api/journal/\(entry)"))
            expectNotFound(try await me.delete("/api/journal/0"))
            #expect(ids(try await me.get("/api/journal")) == [second])
        }
    }

    @Test(arguments: Engine.available)
    func anEntryNeedsATitleAndAPost(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            expectDataError(
                try await me.post("/api/journal", [:]), ["The title field is required.", "The post field is required."])
            expectDataError(
                try await me.post("/api/journal", ["title": .string(String(repeating: "a", count: 256)), "post": "p"]),
                ["The title must not be greater than 255 characters."])
            expectDataError(
                try await me.post("/api/journal", ["title": "t", "post": "p", "date": "2018-02-30"]),
                ["The date does not match the format Y-m-d."])
            #expect(try await me.get("/api/journal").json["meta"]?["total"] == 0, "refused, nothing made")

            let entry = try #require(try await me.post("/api/journal", ["title": "kept", "post": "p"]).dataID)
            expectDataError(
                try await me.put("/api/journal/\(entry)", [:]),
                ["The title field is required.", "The post field is required."])
            // Monica looks the entry up before it reads the input.
            expectNotFound(try await me.put("/api/journal/999999", [:]))
            expectNotFound(try await me.put("/api/journal/999999", ["title": "t", "post": "p"]))
            #expect(try await me.get("/api/journal/\(entry)").data?["title"] == "kept")
        }
    }

    @Test(arguments: Engine.available)
    func anotherAccountSeesAndChangesNoneOfThem(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, other, _ in
            let entry = try #require(try await me.post("/api/journal", ["title": "secret", "post": "diary"]).dataID)
            _ = try await other.post("/api/journal", ["title": "theirs", "post": "theirs"])
            #expect(try await other.get("/api/journal").json["meta"]?["total"] == 1)
            #expect(!ids(try await other.get("/api/journal")).contains(entry))
            expectNotFound(try await other.get("/api/journal/\(entry)"))
            expectNotFound(try await other.put("/api/journal/\(entry)", ["title": "t", "post": "p"]))
            expectNotFound(try await other.delete("/api/journal/\(entry)"))
            let mine = try await me.get("/api/journal/\(entry)")
            #expect(mine.data?["title"] == "secret")
            #expect(mine.data?["post"] == "diary")
            #expect(try await me.get("/api/journal").json["meta"]?["total"] == 1)
        }
    }
}
