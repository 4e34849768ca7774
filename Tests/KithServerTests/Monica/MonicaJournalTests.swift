import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// What Monica's notes, tasks, activities, gifts and reminders API tests assert.
@Suite("Monica API: notes, tasks, activities, gifts, reminders")
struct MonicaJournalTests {
    @Test(arguments: Engine.available)
    func notes(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, other, _ in
            let first = try await me.contact("John")
            let second = try await me.contact("Jane")
            let created = try await me.post(
                "/api/notes", ["contact_id": .int(first), "body": "the body of the note", "is_favorited": false])
            #expect(created.status == .created)
            expectFragment(created, [("object", "note"), ("body", "the body of the note"), ("is_favorited", false)])
            let note = try #require(created.dataID)
            let favorite = try await me.post(
                "/api/notes", ["contact_id": .int(second), "body": "fav", "is_favorited": 1])
            expectFragment(favorite, [("is_favorited", true), ("favorited_at", "2018-01-01T07:00:00Z")])
            let all = try await me.get("/api/notes")
            expectStructure(
                all.json,
                [
                    "data.*.id", "data.*.object", "data.*.body", "data.*.is_favorited", "data.*.favorited_at",
                    "data.*.account.id", "data.*.contact.id", "data.*.created_at", "data.*.updated_at",
                ])
            #expect(ids(all).count == 2)
            #expect(ids(try await me.get("/api/contacts/\(first)/notes")) == [note])
            expectNotFound(try await me.get("/api/contacts/0/notes"))
            expectNotFound(try await me.get("/api/notes/0"))
            expectDataError(
                try await me.post("/api/notes", ["contact_id": .int(first)]), ["The body field is required."])
            let foreign = try await other.contact("Other")
            expectNotFound(try await me.post("/api/notes", ["contact_id": .int(foreign), "body": "x"]))
            let updated = try await me.put(
                "/api/notes/\(note)", ["contact_id": .int(first), "body": "changed", "is_favorited": "1"])
            expectFragment(
                updated, [("body", "changed"), ("is_favorited", true), ("favorited_at", "2018-01-01T07:00:00Z")])
            expectNotFound(try await me.put("/api/notes/\(note)", ["contact_id": .int(foreign), "body": "x"]))
            #expect(try await me.delete("/api/notes/\(note)").json == ["deleted": true, "id": .int(note)])
            expectNotFound(try await me.delete("/api/notes/0"))
        }
    }

    @Test(arguments: Engine.available)
    func tasks(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, other, _ in
            let contact = try await me.contact("John")
            let created = try await me.post(
                "/api/tasks",
                ["contact_id": .int(contact), "title": "the task", "description": "description", "completed": false])
            #expect(created.status == .ok, "Monica answers a new task with 200")
            expectFragment(created, [("object", "task"), ("title", "the task"), ("completed", false)])
            let task = try #require(created.dataID)
            let loose = try await me.post("/api/tasks", ["title": "buy milk"])
            #expect(loose.data?["contact"] == .null)
            expectStructure(
                try await me.get("/api/tasks").json,
                [
                    "data.*.id", "data.*.object", "data.*.title", "data.*.description", "data.*.completed",
                    "data.*.completed_at",
                    "data.*.account.id", "data.*.created_at", "data.*.updated_at",
                ])
            #expect(ids(try await me.get("/api/contacts/\(contact)/tasks")) == [task])
            expectDataError(
                try await me.post("/api/tasks", ["contact_id": .int(contact)]), ["The title field is required."])
            let foreign = try await other.contact("Other")
            expectNotFound(try await me.post("/api/tasks", ["contact_id": .int(foreign), "title": "x"]))
            expectDataError(
                try await me.put("/api/tasks/\(task)", ["contact_id": .int(contact)]),
                ["The title field is required.", "The completed field is required."])
            let done = try await me.put(
                "/api/tasks/\(task)", ["contact_id": .int(contact), "title": "the task", "completed": true])
            expectFragment(done, [("completed", true), ("completed_at", "2018-01-01T07:00:00Z")])
            #expect(try await me.get("/api/tasks?sort=-completed_at").data?[0]?["id"] == .int(task))
            expectNotFound(try await other.put("/api/tasks/\(task)", ["title": "x", "completed": false]))
            #expect(try await me.delete("/api/tasks/\(task)").json == ["deleted": true, "id": .string(String(task))])
            expectNotFound(try await me.delete("/api/tasks/0"))
        }
    }

    @Test(arguments: Engine.available)
    func activitiesWithTheirTypesAttendeesAndStatistics(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let john = try await me.contact("John")
            let jane = try await me.contact("Jane")
            let types = try await me.get("/api/activitytypes?limit=100")
            #expect(types.data?.arrayValue?.count == 13)
            expectFragment(types, [("name", "ate at a restaurant"), ("name", "Food")])
            let restaurant = try #require(
                types.data?.arrayValue?.first { $0["name"] == "ate at a restaurant" }?["id"]?.intValue)
            let created = try await me.post(
                "/api/activities",
                [
                    "contacts": [.int(john), .int(jane)], "summary": "the activity", "description": "the description",
                    "happened_at": "2018-05-01", "activity_type_id": .int(restaurant),
                ])
            #expect(created.status == .created)
            expectStructure(
                created.data,
                [
                    "id", "object", "summary", "description", "happened_at", "activity_type.id", "activity_type.name",
                    "activity_type.location_type", "activity_type.activity_type_category.name", "attendees.total",
                    "attendees.contacts", "emotions", "account.id", "created_at", "updated_at",
                ])
            #expect(created.data?["attendees"]?["total"] == 2)
            #expect(created.data?["happened_at"] == "2018-05-01")
            let activity = try #require(created.dataID)
            _ = try await me.post(
                "/api/activities", ["contacts": [.int(jane)], "summary": "older", "happened_at": "2017-03-03"])

            let ofJohn = try await me.get("/api/contacts/\(john)/activities")
            #expect(ids(ofJohn) == [activity])
            #expect(ofJohn["meta"]?["statistics"] == ["2018": 1, "2017": 1], "statistics cover the whole account")
            let johnShown = try await me.get("/api/contacts/\(john)")
            #expect(johnShown.data?["statistics"]?["number_of_activities"] == 1)
            #expect(johnShown.data?["last_activity_together"] == "2018-05-01T00:00:00.000000Z")

            expectDataError(
                try await me.post("/api/activities", ["contact_id": [.int(john)]]),
                [
                    "The summary field is required.", "The happened at field is required.",
                    "The contacts field is required.",
                ])
            expectDataError(
                try await me.post(
                    "/api/activities", ["contacts": [.int(john)], "summary": "x", "happened_at": "2018-13-01"]),
                ["The happened at does not match the format Y-m-d."])
            let foreign = try await other.contact("Other")
            expectNotFound(
                try await me.post(
                    "/api/activities", ["contacts": [.int(foreign)], "summary": "x", "happened_at": "2018-05-01"]))

            let updated = try await me.put(
                "/api/activities/\(activity)",
                ["contacts": [.int(john)], "summary": "changed", "happened_at": "2018-05-02"])
            #expect(updated.data?["attendees"]?["total"] == 1, "attendees are replaced")
            #expect(ids(try await me.get("/api/contacts/\(jane)/activities")).count == 1)
            expectDataError(
                try await me.put(
                    "/api/activities/0", ["contacts": [.int(john)], "summary": "x", "happened_at": "2018-05-01"]),
                ["The selected activity id is invalid."])
            expectNotFound(
                try await other.put(
                    "/api/activities/\(activity)",
                    ["contacts": [.int(foreign)], "summary": "x", "happened_at": "2018-05-01"]))
            #expect(
                try await me.delete("/api/activities/\(activity)").json == [
                    "deleted": true, "id": .string(String(activity)),
                ])
            expectDataError(try await me.delete("/api/activities/0"), ["The selected activity id is invalid."])

            let categories = try await me.get("/api/activitytypecategories")
            #expect(
                categories.data?.arrayValue?.compactMap { $0["name"]?.stringValue }
                    == ["Simple activities", "Sport", "Food", "Cultural activities"])
            let category = try #require(categories.data?[0]?["id"]?.intValue)
            let newType = try await me.post(
                "/api/activitytypes", ["name": "Movies", "activity_type_category_id": .int(category)])
            #expect(newType.status == .ok, "Monica answers a new activity type with 200")
            expectDataError(
                try await me.post("/api/activitytypes"), ["The activity type category id field is required."])
            expectDataError(
                try await me.delete("/api/activitytypes/2349273984279348"),
                ["The selected activity type id is invalid."])
            #expect(
                try await me.delete("/api/activitytypes/\(try #require(newType.dataID))").json
                    == ["deleted": true, "id": .int(try #require(newType.dataID))])
        }
    }

    @Test(arguments: Engine.available)
    func gifts(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let john = try await me.contact("John")
            let jane = try await me.contact("Jane")
            let created = try await me.post(
                "/api/gifts",
                [
                    "contact_id": .int(john), "status": "idea", "name": "the gift", "recipient_id": .int(jane),
                    "amount": "12.5",
                ])
            #expect(created.status == .created)
            expectStructure(
                created.data,
                [
                    "id", "object", "status", "comment", "name", "url", "amount", "amount_with_currency", "account.id",
                    "contact.id", "created_at", "updated_at",
                ])
            expectFragment(created, [("amount", 12.5), ("value", "12.50"), ("amount_with_currency", "$12.50")])
            #expect(created.data?["recipient"]?["id"] == .int(jane))
            let gift = try #require(created.dataID)
            #expect(ids(try await me.get("/api/contacts/\(john)/gifts")) == [gift])
            expectNotFound(try await me.get("/api/contacts/0/gifts"))
            expectDataError(
                try await me.post("/api/gifts", ["contact_id": .int(john), "status": "idea"]),
                ["The name field is required."])
            expectDataError(
                try await me.post("/api/gifts", ["contact_id": .int(john), "status": "lost", "name": "x"]),
                ["The selected status is invalid."])
            let foreign = try await other.contact("Other")
            expectNotFound(
                try await me.post(
                    "/api/gifts",
                    ["contact_id": .int(john), "status": "idea", "name": "x", "recipient_id": .int(foreign)]))
            let updated = try await me.put(
                "/api/gifts/\(gift)",
                ["contact_id": .int(john), "name": "the gift", "status": "offered", "comment": "one comment"])
            expectFragment(
                updated, [("comment", "one comment"), ("status", "offered"), ("recipient", nil), ("amount", nil)])
            #expect(try await me.delete("/api/gifts/\(gift)").json == ["deleted": true, "id": .string(String(gift))])
            #expect(try await me.delete("/api/gifts/0").status == .unprocessableContent)
        }
    }

    @Test(arguments: Engine.available)
    func remindersAndTheUpcomingOnes(_ engine: Engine) async throws {
        // 2017-01-01 00:00 UTC.
        try await MonicaHarness.run(engine, start: Date(timeIntervalSince1970: 1_483_228_800)) { me, other, _ in
            let john = try await me.contact("John")
            let created = try await me.post(
                "/api/reminders",
                [
                    "contact_id": .int(john), "title": "the title", "initial_date": "2017-03-03",
                    "frequency_type": "one_time",
                    "frequency_number": 1, "description": "the description",
                ])
            #expect(created.status == .created)
            expectStructure(
                created.data,
                [
                    "id", "object", "initial_date", "title", "description", "frequency_type", "frequency_number",
                    "delible",
                    "account.id", "contact.id", "created_at", "updated_at",
                ])
            expectFragment(created, [("initial_date", "2017-03-03T00:00:00Z"), ("delible", true)])
            let once = try #require(created.dataID)
            let yearly = try #require(
                try await me.post(
                    "/api/reminders",
                    [
                        "contact_id": .int(john), "title": "yearly", "initial_date": "2015-03-20",
                        "frequency_type": "year",
                        "frequency_number": 1, "delible": false,
                    ]
                ).dataID)
            expectDataError(
                try await me.post("/api/reminders", ["contact_id": .int(john)]),
                [
                    "The initial date field is required.", "The frequency type field is required.",
                    "The frequency number field is required.", "The title field is required.",
                ])
            let foreign = try await other.contact("Other")
            expectNotFound(
                try await me.post(
                    "/api/reminders",
                    [
                        "contact_id": .int(foreign), "title": "x", "initial_date": "2017-03-03",
                        "frequency_type": "week",
                        "frequency_number": 1,
                    ]))

            let march = try await me.get("/api/reminders/upcoming/2")
            #expect(march.status == .ok)
            #expect(march["meta"] == nil, "not paginated")
            let planned = march.data?.arrayValue?.map { ($0["reminder_id"]?.intValue, $0["planned_date"]?.stringValue) }
            #expect(planned?.map(\.0) == [once, yearly])
            #expect(planned?.map(\.1) == ["2017-03-03T00:00:00Z", "2017-03-20T00:00:00Z"])
            #expect(try await me.get("/api/reminders/upcoming/0").data == [])
            #expect(ids(try await me.get("/api/contacts/\(john)/reminders")) == [once, yearly])

            expectDataError(
                try await me.put("/api/reminders/\(once)", ["contact_id": .int(john)]),
                [
                    "The initial date field is required.", "The frequency type field is required.",
                    "The title field is required.",
                ])
            let updated = try await me.put(
                "/api/reminders/\(once)",
                [
                    "contact_id": .int(john), "title": "the title", "initial_date": "2018-05-01",
                    "frequency_type": "one_time",
                    "description": "the description",
                ])
            expectFragment(updated, [("initial_date", "2018-05-01T00:00:00Z"), ("frequency_number", nil)])
            expectNotFound(
                try await other.put(
                    "/api/reminders/\(once)",
                    [
                        "contact_id": .int(foreign), "title": "x", "initial_date": "2018-05-01",
                        "frequency_type": "one_time",
                    ]))
            #expect(try await me.delete("/api/reminders/\(once)").json == ["deleted": true, "id": .int(once)])
            expectDataError(try await me.delete("/api/reminders/0"), ["The selected reminder id is invalid."])
        }
    }
}
