import Foundation
import KithCore
import KithTestSupport
import SQLKit
import Testing

@testable import KithServer

/// Every integer and date `/api` takes is bounded where it enters, and nothing stored can make a
/// read trap: before this, `?page=2^63-1` and a reminder every 2^63-1 weeks each took the whole
/// server down (Swift traps on overflow), the second one again after every restart.
@Suite("Monica API: integers and dates at their edges")
struct MonicaBoundsTests {
    static let largest = "9223372036854775807"
    static let smallest = "-9223372036854775808"
    static let beyond = "99999999999999999999"
    /// Every index that pages, and a contact's own list.
    static let indexes = [
        "/api/contacts", "/api/notes", "/api/tags", "/api/activities", "/api/reminders", "/api/tasks", "/api/gifts",
        "/api/addresses",
    ]

    @Test(arguments: Engine.available)
    func pageAndLimitAtTheEdges(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let contact = try await me.contact("Ada")
            for index in Self.indexes + ["/api/contacts/\(contact)/notes", "/api/contacts?query=Ada"] {
                let join = index.contains("?") ? "&" : "?"
                for page in [Self.largest, Self.beyond, "2147483648"] {
                    let answer = try await me.get("\(index)\(join)page=\(page)")
                    #expect(answer.status == .badRequest, "\(index) page=\(page): \(answer.text)")
                    #expect(
                        answer.json == ["error": ["message": "The page parameter is too big", "error_code": 30]],
                        "\(index) page=\(page): \(answer.text)")
                }
                let farthest = try await me.get("\(index)\(join)page=2147483647&limit=100")
                #expect(farthest.status == .ok, "\(index): \(farthest.text)")
                #expect(farthest["meta"]?["current_page"] == 2_147_483_647)
                #expect(farthest.data == [], "nothing lives that far")
                #expect(farthest["links"]?["prev"]?.stringValue?.hasSuffix("page=2147483646") == true)
                for page in [Self.smallest, "-1", "0", "abc", ""] {
                    let first = try await me.get("\(index)\(join)page=\(page)")
                    #expect(first.status == .ok, "\(index) page=\(page): \(first.text)")
                    #expect(first["meta"]?["current_page"] == 1, "as Laravel, no positive number is page 1")
                }
                for limit in [Self.largest, Self.beyond, "101"] {
                    let answer = try await me.get("\(index)\(join)limit=\(limit)")
                    #expect(answer.status == .badRequest, "\(index) limit=\(limit): \(answer.text)")
                    #expect(answer["error"]?["error_code"] == 30)
                }
                for limit in [Self.smallest, "-1", "0", "abc"] {
                    let answer = try await me.get("\(index)\(join)limit=\(limit)")
                    #expect(answer.status == .ok, "\(index) limit=\(limit): \(answer.text)")
                    #expect(answer["meta"]?["per_page"] == 15, "the default page size")
                }
            }
        }
    }

    @Test(arguments: Engine.available)
    func idsAtTheEdges(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let contact = try await me.contact("Ada")
            for id in [Self.largest, Self.smallest, Self.beyond, "0", "-1", "1e3", "0x10"] {
                expectNotFound(try await me.get("/api/contacts/\(id)"))
                expectNotFound(try await me.get("/api/notes/\(id)"))
                expectNotFound(try await me.get("/api/contacts/\(id)/notes"))
                expectNotFound(try await me.put("/api/contacts/\(id)/work", ["job": "x"]))
                #expect(try await me.delete("/api/contacts/\(id)").status == .notFound)
                #expect(try await me.delete("/api/reminders/\(id)").status.code < 500)
            }
            for id: Int64 in [.max, .min, 0, -1] {
                expectNotFound(try await me.post("/api/notes", ["contact_id": .int(id), "body": "x"]))
                expectDataError(
                    try await me.post(
                        "/api/reminders",
                        [
                            "contact_id": .int(id), "title": "t", "initial_date": "2020-01-01",
                            "frequency_type": "year",
                            "frequency_number": 1,
                        ]), ["The selected contact id is invalid."])
                let tagged = try await me.post(
                    "/api/activities",
                    ["summary": "x", "happened_at": "2020-01-01", "contacts": [.int(id)], "activity_type_id": .int(id)])
                #expect(tagged.status.code == 422 || tagged.status.code == 404, "\(tagged.text)")
            }
            #expect(try await me.get("/api/contacts/\(contact)").status == .ok)
        }
    }

    @Test(arguments: Engine.available)
    func upcomingMonthsAtTheEdges(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            for month in ["0", "1", "1200"] {
                #expect(try await me.get("/api/reminders/upcoming/\(month)").status == .ok, "month \(month)")
            }
            for month in ["1201", "-1", Self.largest, Self.smallest, Self.beyond, "x"] {
                expectNotFound(try await me.get("/api/reminders/upcoming/\(month)"))
            }
        }
    }

    @Test(arguments: Engine.available)
    func frequenciesAreBounded(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, server in
            let contact = try await me.contact("Ada")
            func reminder(_ frequency: JSONTree, _ initial: String = "1900-01-01") -> JSONTree {
                [
                    "contact_id": .int(contact), "title": "t", "initial_date": .string(initial),
                    "frequency_type": "week",
                    "frequency_number": frequency,
                ]
            }
            for frequency: JSONTree in [.int(.max), .int(.min), 0, -1, 1001, .string(Self.beyond)] {
                let refused = try await me.post("/api/reminders", reminder(frequency))
                #expect(refused.status == .unprocessableContent, "\(frequency): \(refused.text)")
            }
            #expect(try await Self.count(server, "monica_reminders") == 0, "nothing refused was stored")
            let every1000 = try await me.post("/api/reminders", reminder(1000))
            #expect(every1000.status == .created, "\(every1000.text)")
            let saved = try #require(every1000.dataID)
            expectDataError(
                try await me.put("/api/reminders/\(saved)", reminder(.int(.max))),
                ["The frequency number must be between 1 and 1000."])
            #expect(try await me.get("/api/reminders/\(saved)").data?["frequency_number"] == 1000)
        }
    }

    /// Years 1 and 9999 are valid dates everywhere a date is taken; 0 and 10000 are not.
    @Test(arguments: Engine.available)
    func datesAtYearOneAndYear9999(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: Date(timeIntervalSince1970: 1_790_000_000)) { me, _, _ in
            let contact = try await me.contact("Ada")
            for day in ["0001-01-01", "9999-12-31"] {
                for type in ["week", "month", "year", "one_time"] {
                    let reminder = try await me.post(
                        "/api/reminders",
                        [
                            "contact_id": .int(contact), "title": .string("\(type) \(day)"),
                            "initial_date": .string(day),
                            "frequency_type": .string(type), "frequency_number": 1,
                        ])
                    #expect(reminder.status == .created, "\(type) \(day): \(reminder.text)")
                }
                let gift = try await me.post(
                    "/api/gifts", ["contact_id": .int(contact), "name": "g", "status": "idea", "date": .string(day)])
                #expect(gift.status == .created, "\(gift.text)")
                let activity = try await me.post(
                    "/api/activities", ["summary": "s", "happened_at": .string(day), "contacts": [.int(contact)]])
                #expect(activity.status == .created, "\(activity.text)")
            }
            // The last year is refused as a birthday that has not happened, not as a bad date.
            expectDataError(
                try await me.post(
                    "/api/contacts",
                    [
                        "first_name": "x", "is_birthdate_known": true, "birthdate_day": 28, "birthdate_month": 2,
                        "birthdate_year": 9999, "is_deceased": false, "is_deceased_date_known": false,
                    ]), ["The birthdate must be a date before or equal to today."])
            for year: Int64 in [1, 2026] {
                let born = try await me.contact(
                    "Born \(year)",
                    extra: [
                        ("is_birthdate_known", true), ("birthdate_day", 28), ("birthdate_month", 2),
                        ("birthdate_year", .int(year)), ("birthdate_add_reminder", true),
                    ])
                let shown = try await me.get("/api/contacts/\(born)")
                #expect(
                    shown.data?["information"]?["dates"]?["birthdate"]?["date"]
                        == .string(String(format: "%04d-02-28T00:00:00Z", year)))
            }
            for day in ["0000-01-01", "10000-01-01", "9999-12-32", "0001-00-01"] {
                expectDataError(
                    try await me.post(
                        "/api/reminders",
                        [
                            "contact_id": .int(contact), "title": "t", "initial_date": .string(day),
                            "frequency_type": "year", "frequency_number": 1,
                        ]), ["The initial date does not match the format Y-m-d."])
            }
            for year: Int64 in [0, 10000, .max, .min] where year != 0 {
                expectDataError(
                    try await me.post(
                        "/api/contacts",
                        [
                            "first_name": "x", "is_birthdate_known": true, "birthdate_day": 1, "birthdate_month": 1,
                            "birthdate_year": .int(year), "is_deceased": false, "is_deceased_date_known": false,
                        ]), ["The birthdate is not a valid date."])
            }
            expectDataError(
                try await me.post(
                    "/api/contacts",
                    [
                        "first_name": "x", "is_birthdate_known": true, "birthdate_is_age_based": true,
                        "birthdate_age": .int(.max), "is_deceased": false, "is_deceased_date_known": false,
                    ]), ["The age must be between 0 and 2025."])
            // Every reader of those dates answers.
            for path in [
                "/api/reminders", "/api/gifts", "/api/activities", "/api/contacts", "/api/contacts/\(contact)",
            ] {
                #expect(try await me.get(path).status == .ok, "\(path)")
            }
            var listed: [String] = []
            for month in Array(0...13) + [600, 1200] {
                let upcoming = try await me.get("/api/reminders/upcoming/\(month)")
                #expect(upcoming.status == .ok)
                listed += upcoming.data?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
            }
            // 2026-09-21 (the clock) is a Monday, as was 0001-01-01: the weekly one falls on it.
            #expect(listed.contains("week 0001-01-01"))
            #expect(listed.contains("year 0001-01-01"))
            #expect(!listed.contains("one_time 0001-01-01"), "a one-time reminder in the past is not upcoming")
            #expect(!listed.contains { $0.hasSuffix("9999-12-31") }, "not within a hundred years")
        }
    }

    /// Earlier versions stored whatever came: such rows must never make a read trap.
    @Test(arguments: Engine.available)
    func storedValuesOutOfBoundsAreReadSafely(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, server in
            let contact = try await me.contact("Ada")
            let account = try #require(
                try await server.app.database.run { sql in
                    try await sql.raw("SELECT account_id FROM monica_contacts WHERE id = \(bind: contact)")
                        .first(decodingColumn: "account_id", as: Int64.self)
                })
            let rows: [(String, String, Int64)] = [
                ("week", "1900-01-01", .max), ("month", "0001-01-31", .max), ("year", "2000-02-29", .max),
                ("week", "0001-01-01", 1), ("month", "not a date", 3), ("year", "9999-12-31", .min),
                ("fortnight", "2020-01-01", 2), ("week", "2020-01-01", 0),
            ]
            for (type, day, frequency) in rows {
                try await server.app.database.run { sql in
                    try await sql.raw(
                        """
                        INSERT INTO monica_reminders (account_id, contact_id, uuid, title, initial_date, frequency_type,
                            frequency_number, delible, created_at, updated_at)
                        VALUES (\(bind: account), \(bind: contact), \(bind: UUID().lowercased), \(bind: "\(type) \(day)"),
                            \(bind: day), \(bind: type), \(bind: frequency), 1, \(bind: Int64.max), \(bind: Int64.min))
                        """
                    ).run()
                }
            }
            for month in 0...24 {
                #expect(try await me.get("/api/reminders/upcoming/\(month)").status == .ok, "month \(month)")
            }
            let listed = try await me.get("/api/reminders?limit=100")
            #expect(listed.status == .ok)
            #expect(listed.data?.arrayValue?.count == rows.count)
            #expect(
                listed.data?.arrayValue?.first?["created_at"] == "9999-12-31T23:59:59Z",
                "a time past year 9999 is shown as its last second")
            #expect(try await me.get("/api/contacts/\(contact)").status == .ok)
        }
    }

    static func count(_ server: TestServer, _ table: String) async throws -> Int {
        try await server.app.database.run { sql in
            try await sql.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first(decodingColumn: "n", as: Int.self)
        } ?? 0
    }
}
