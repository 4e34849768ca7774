import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Day ratings under `/api/journal/days`: Kith's, since Monica rates days (1 bad, 2 so-so,
/// 3 great) on its web pages only. One rating a day, not after today; isolation.
@Suite("Monica API: journal day ratings")
struct MonicaDayRatingsTests {
    static let fields = [
        "id", "uuid", "object", "date", "rate", "comment", "url", "account.id", "created_at", "updated_at",
    ]

    static func paths(_ prefix: String) -> [String] { fields.map { prefix + $0 } }

    static func rate(_ user: MonicaUser, _ day: String, _ rate: Int64 = 2) async throws -> Int64 {
        let made = try await user.post("/api/journal/days", ["date": .string(day), "rate": .int(rate)])
        #expect(made.status == .created, "\(made.text)")
        return try #require(made.dataID)
    }

    @Test(arguments: Engine.available)
    func daysAreRatedListedChangedAndDeleted(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            let rated = try await me.post(
                "/api/journal/days", ["date": "2017-12-31", "rate": 3, "comment": "a great day"])
            #expect(rated.status == .created)
            expectStructure(rated.json, Self.paths("data."))
            expectFragment(rated, [("object", "day"), ("date", "2017-12-31"), ("rate", 3), ("comment", "a great day")])
            let day = try #require(rated.dataID)
            #expect(rated.data?["url"]?.stringValue?.hasSuffix("/api/journal/days/\(day)") == true)
            let older = try #require(
                try await me.post("/api/journal/days", ["date": "2017-12-01", "rate": "1"]).dataID)
            let today = try await Self.rate(me, "2018-01-01")

            let listed = try await me.get("/api/journal/days")
            #expect(listed.status == .ok)
            expectStructure(listed.json, Self.paths("data.*."))
            expectFragment(listed, [("total", 3), ("current_page", 1)])
            #expect(ids(listed) == [today, day, older], "newest day first")
            #expect(listed.data?[2]?["rate"] == 1)
            #expect(listed.data?[2]?["comment"] == .null)
            #expect(ids(try await me.get("/api/journal/days?sort=created_at")) == [day, older, today])
            #expect(ids(try await me.get("/api/journal/days?sort=-created_at")) == [today, older, day])
            #expect(ids(try await me.get("/api/journal/days?limit=1&page=2")) == [day])
            expectFragment(try await me.get("/api/journal/days?limit=1"), [("per_page", 1), ("last_page", 3)])
            #expect(try await me.get("/api/journal/days?sort=date").status == .badRequest)

            let shown = try await me.get("/api/journal/days/\(day)")
            #expect(shown.status == .ok)
            expectStructure(shown.json, Self.paths("data."))
            expectFragment(shown, [("id", .int(day)), ("rate", 3), ("comment", "a great day")])
            expectNotFound(try await me.get("/api/journal/days/0"))

            let changed = try await me.put("/api/journal/days/\(day)", ["rate": 2, "comment": "on second thought"])
            #expect(changed.status == .ok)
            expectFragment(
                changed, [("id", .int(day)), ("date", "2017-12-31"), ("rate", 2), ("comment", "on second thought")])
            let moved = try await me.put("/api/journal/days/\(day)", ["date": "2017-12-30", "rate": 1])
            #expect(moved.data?["date"] == "2017-12-30")
            #expect(moved.data?["comment"] == .null, "a change replaces the rating, comment and all")

            let deleted = try await me.delete("/api/journal/days/\(day)")
            #expect(deleted.status == .ok)
            #expect(deleted.json == ["deleted": true, "id": .int(day)])
            expectNotFound(try await me.get("/api/journal/days/\(day)"))
            expectNotFound(try await me.delete("/api/journal/days/0"))
            #expect(ids(try await me.get("/api/journal/days")) == [today, older])
        }
    }

    @Test(arguments: Engine.available)
    func aDayHasOneRatingAndHasBegun(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            expectDataError(
                try await me.post("/api/journal/days", [:]),
                ["The date field is required.", "The rate field is required."])
            for rate: JSONTree in [0, 4] {
                expectDataError(
                    try await me.post("/api/journal/days", ["date": "2017-12-25", "rate": rate]),
                    ["The rate must be between 1 and 3."])
            }
            expectDataError(
                try await me.post("/api/journal/days", ["date": "2017-12-25", "rate": "great"]),
                ["The rate must be an integer."])
            expectDataError(
                try await me.post("/api/journal/days", ["date": "2018-13-01", "rate": 2]),
                ["The date does not match the format Y-m-d."])
            // Today is the latest calendar day on Earth: the server's UTC day (2018-01-01) plus one.
            let tomorrow = try await Self.rate(me, "2018-01-02")
            expectDataError(
                try await me.post("/api/journal/days", ["date": "2018-01-03", "rate": 2]),
                ["The date must be a date before or equal to today."])

            let christmas = try #require(
                try await me.post("/api/journal/days", ["date": "2017-12-25", "rate": 3, "comment": "first"]).dataID)
            expectDataError(
                try await me.post("/api/journal/days", ["date": "2017-12-25", "rate": 1, "comment": "second"]),
                ["There is already a rating for this day."])
            let kept = try await me.get("/api/journal/days/\(christmas)")
            expectFragment(kept, [("date", "2017-12-25"), ("rate", 3), ("comment", "first")])
            #expect(try await me.get("/api/journal/days").json["meta"]?["total"] == 2)

            expectDataError(
                try await me.put("/api/journal/days/\(christmas)", ["date": "2018-01-02", "rate": 1]),
                ["There is already a rating for this day."])
            expectDataError(
                try await me.put("/api/journal/days/\(christmas)", ["date": "2018-01-03", "rate": 1]),
                ["The date must be a date before or equal to today."])
            expectDataError(try await me.put("/api/journal/days/\(christmas)", [:]), ["The rate field is required."])
            expectFragment(
                try await me.get("/api/journal/days/\(christmas)"),
                [("date", "2017-12-25"), ("rate", 3), ("comment", "first")])
            let same = try await me.put("/api/journal/days/\(christmas)", ["date": "2017-12-25", "rate": 2])
            #expect(same.status == .ok, "a rating may name its own day")
            expectNotFound(try await me.put("/api/journal/days/999999", ["rate": 2]))

            // Once its rating is gone, a day can be rated again.
            #expect(try await me.delete("/api/journal/days/\(tomorrow)").status == .ok)
            _ = try await Self.rate(me, "2018-01-02", 3)
        }
    }

    /// `journal/days` is a path of its own, not entry "days" of `journal/{id}`.
    @Test(arguments: Engine.available)
    func journalDaysIsTheListOfRatingsNotAnEntry(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            let entry = try #require(try await me.post("/api/journal", ["title": "days", "post": "an entry"]).dataID)
            let day = try await Self.rate(me, "2017-12-31")
            let days = try await me.get("/api/journal/days")
            #expect(days.status == .ok)
            #expect(ids(days) == [day])
            #expect(days.data?[0]?["object"] == "day")
            #expect(days.json["meta"]?["total"] == 1)
            let entries = try await me.get("/api/journal")
            #expect(ids(entries) == [entry])
            #expect(entries.data?[0]?["object"] == "entry")
            #expect(try await me.get("/api/journal/\(entry)").data?["object"] == "entry")
            #expect(try await me.get("/api/journal/days/\(day)").data?["object"] == "day")
            #expect(try await me.delete("/api/journal/days").status == .notFound)
            #expect(try await me.get("/api/journal/\(entry)").status == .ok, "no entry was deleted")
        }
    }

    @Test(arguments: Engine.available)
    func anotherAccountSeesAndChangesNoneOfThem(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, other, _ in
            let day = try #require(
                try await me.post("/api/journal/days", ["date": "2017-12-31", "rate": 3, "comment": "mine"]).dataID)
            #expect(try await other.get("/api/journal/days").json["meta"]?["total"] == 0)
            expectNotFound(try await other.get("/api/journal/days/\(day)"))
            expectNotFound(try await other.put("/api/journal/days/\(day)", ["rate": 1]))
            expectNotFound(try await other.delete("/api/journal/days/\(day)"))
            // One rating a day is per account: another's rating of the same day is its own.
            let theirs = try await Self.rate(other, "2017-12-31", 1)
            #expect(ids(try await other.get("/api/journal/days")) == [theirs])
            #expect(ids(try await me.get("/api/journal/days")) == [day])
            expectFragment(try await me.get("/api/journal/days/\(day)"), [("rate", 3), ("comment", "mine")])
        }
    }
}
