import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// What Monica's life events API tests assert, the types a client chooses from, and the yearly
/// reminder a life event can bring.
@Suite("Monica API: life events")
struct MonicaLifeEventsTests {
    static let structure = [
        "data.id", "data.uuid", "data.object", "data.name", "data.note", "data.happened_at",
        "data.life_event_type.id", "data.life_event_type.object", "data.life_event_type.name",
        "data.life_event_type.life_event_category.id", "data.life_event_type.life_event_category.name",
        "data.account.id", "data.contact.id", "data.created_at", "data.updated_at",
    ]

    /// The id of the account's type named `name`.
    static func type(_ user: MonicaUser, _ name: String) async throws -> Int64 {
        let types = try #require(try await user.get("/api/lifeeventtypes").data?.arrayValue)
        return try #require(types.first { $0["name"] == .string(name) }?["id"]?.intValue)
    }

    static func event(contact: Int64, type: Int64, reminder: Bool = false) -> JSONTree {
        [
            "contact_id": .int(contact), "life_event_type_id": .int(type), "happened_at": "1989-02-02",
            "name": "This is a text", "note": "This is a note", "has_reminder": .bool(reminder),
            "happened_at_month_unknown": false, "happened_at_day_unknown": false,
        ]
    }

    @Test(arguments: Engine.available)
    func lifeEventsAreListedShownMadeChangedAndDeleted(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, other, _ in
            let john = try await me.contact("John")
            let newJob = try await Self.type(me, "New job")
            let created = try await me.post("/api/lifeevents", Self.event(contact: john, type: newJob))
            #expect(created.status == .ok, "Monica answers a new life event with 200")
            expectStructure(created.json, Self.structure)
            expectFragment(
                created,
                [
                    ("object", "lifeevent"), ("name", "This is a text"), ("happened_at", "1989-02-02T00:00:00Z"),
                    ("default_life_event_type_key", "new_job"), ("object", "lifeeventcategory"),
                    ("name", "Work & education"),
                ])
            let event = try #require(created.dataID)
            for _ in 0..<9 { _ = try await me.post("/api/lifeevents", Self.event(contact: john, type: newJob)) }
            expectFragment(try await me.get("/api/lifeevents"), [("total", 10), ("current_page", 1)])
            expectFragment(
                try await me.get("/api/lifeevents?limit=1"),
                [("total", 10), ("current_page", 1), ("per_page", 1), ("last_page", 10)])
            expectFragment(try await me.get("/api/lifeevents?limit=2"), [("last_page", 5)])
            #expect(try await me.get("/api/lifeevents/\(event)").data?["id"] == .int(event))
            #expect(try await me.get("/api/contacts/\(john)/lifeevents").json["meta"]?["total"] == 10)
            expectNotFound(try await me.get("/api/lifeevents/329029093809"))

            expectNotFound(try await me.post("/api/lifeevents", Self.event(contact: john, type: 0)))
            expectNotFound(try await me.post("/api/lifeevents", Self.event(contact: 0, type: newJob)))
            expectDataError(
                try await me.post("/api/lifeevents", ["contact_id": .int(john)]),
                [
                    "The life event type id field is required.", "The happened at field is required.",
                    "The has reminder field is required.", "The happened at month unknown field is required.",
                    "The happened at day unknown field is required.",
                ])
            // Another account's type and contact are not this account's to use.
            let foreignType = try await Self.type(other, "Marriage")
            expectNotFound(try await me.post("/api/lifeevents", Self.event(contact: john, type: foreignType)))
            let foreign = try await other.contact("Other")
            expectNotFound(try await me.post("/api/lifeevents", Self.event(contact: foreign, type: newJob)))

            let marriage = try await Self.type(me, "Marriage")
            let updated = try await me.put(
                "/api/lifeevents/\(event)",
                ["life_event_type_id": .int(marriage), "happened_at": "2001-06-30", "name": "Wedding", "note": .null])
            #expect(updated.status == .ok)
            expectFragment(
                updated,
                [("name", "Wedding"), ("note", .null), ("happened_at", "2001-06-30T00:00:00Z"), ("name", "Marriage")])
            expectNotFound(try await other.get("/api/lifeevents/\(event)"))
            expectNotFound(
                try await other.put(
                    "/api/lifeevents/\(event)", ["life_event_type_id": .int(foreignType), "happened_at": "2001-06-30"]))
            expectNotFound(try await other.delete("/api/lifeevents/\(event)"))
            #expect(try await other.get("/api/lifeevents").json["meta"]?["total"] == 0)

            #expect(try await me.delete("/api/lifeevents/\(event)").json == ["deleted": true, "id": .int(event)])
            expectNotFound(try await me.delete("/api/lifeevents/\(event)"))
            #expect(try await me.get("/api/lifeevents").json["meta"]?["total"] == 9)
        }
    }

    @Test(arguments: Engine.available)
    func everyAccountHasMonicasTypesToChooseFrom(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let types = try #require(try await me.get("/api/lifeeventtypes").data?.arrayValue)
            #expect(types.count == 43)
            #expect(types.first?["name"] == "New job")
            #expect(types.first?["life_event_category"]?["name"] == "Work & education")
            #expect(types.last?["name"] == "First kiss")
            let categories = try #require(try await me.get("/api/lifeeventcategories").data?.arrayValue)
            #expect(
                categories.map { $0["name"] } == [
                    "Work & education", "Family & relationships", "Home & living", "Health & wellness",
                    "Travel & experiences",
                ])
            // Each account has types of its own.
            let theirs = try #require(try await other.get("/api/lifeeventtypes").data?.arrayValue)
            let mine = Set(types.compactMap { $0["id"]?.intValue })
            #expect(mine.count == 43 && mine.isDisjoint(with: theirs.compactMap { $0["id"]?.intValue }))
        }
    }

    @Test(arguments: Engine.available)
    func aLifeEventCanBeRememberedEveryYear(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            let john = try await me.contact("John")
            let newJob = try await Self.type(me, "New job")
            let event = try #require(
                try await me.post("/api/lifeevents", Self.event(contact: john, type: newJob, reminder: true)).dataID)
            let reminders = try await me.get("/api/contacts/\(john)/reminders")
            #expect(reminders.data?.arrayValue?.count == 1)
            expectFragment(
                reminders,
                [
                    ("title", "New job"), ("frequency_type", "year"), ("frequency_number", 1),
                    ("initial_date", "1989-02-02T00:00:00Z"),
                ])
            // The reminder follows the event's new day and type.
            let moved = try await Self.type(me, "Moved")
            _ = try await me.put(
                "/api/lifeevents/\(event)", ["life_event_type_id": .int(moved), "happened_at": "1990-03-03"])
            expectFragment(
                try await me.get("/api/contacts/\(john)/reminders"),
                [("title", "Moved"), ("initial_date", "1990-03-03T00:00:00Z")])
            _ = try await me.delete("/api/lifeevents/\(event)")
            #expect(try await me.get("/api/contacts/\(john)/reminders").data?.arrayValue?.isEmpty == true)
            // Without one asked, none is made.
            _ = try await me.post("/api/lifeevents", Self.event(contact: john, type: newJob))
            #expect(try await me.get("/api/contacts/\(john)/reminders").data?.arrayValue?.isEmpty == true)
        }
    }
}
