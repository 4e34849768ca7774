import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// What Monica's `ApiOccupationControllerTest` asserts, Kith's checks (a salary's bounds, an end
/// not before the start), and that another account's occupations, contacts and companies are
/// never reached.
@Suite("Monica API: occupations")
struct MonicaOccupationsTests {
    static let structure = [
        "id", "object", "title", "description", "salary", "salary_unit", "currently_works_here", "start_date",
        "end_date", "company.id", "account.id", "contact.id", "created_at", "updated_at",
    ]

    /// A company of `user`'s; its id.
    static func company(_ user: MonicaUser, _ name: String) async throws -> Int64 {
        let made = try await user.post("/api/companies", ["name": .string(name)])
        #expect(made.status == .created, "creating \(name): \(made.text)")
        return try #require(made.dataID)
    }

    /// An occupation of `user`'s; its id.
    static func occupation(_ user: MonicaUser, contact: Int64, company: Int64, _ title: String) async throws -> Int64 {
        let made = try await user.post(
            "/api/occupations", ["contact_id": .int(contact), "company_id": .int(company), "title": .string(title)])
        #expect(made.status == .created, "creating \(title): \(made.text)")
        return try #require(made.dataID)
    }

    @Test(arguments: Engine.available)
    func occupationsAreListedShownAndPaginated(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            let contact = try await me.contact("Rachel")
            let company = try await Self.company(me, "Central Perk")
            for index in 1...10 {
                _ = try await Self.occupation(me, contact: contact, company: company, "Job \(index)")
            }
            let all = try await me.get("/api/occupations")
            #expect(all.status == .ok)
            expectStructure(all.json, Self.structure.map { "data.*.\($0)" })
            expectFragment(
                try await me.get("/api/occupations?limit=1"),
                [("total", 10), ("current_page", 1), ("per_page", 1), ("last_page", 10)])
            expectFragment(
                try await me.get("/api/occupations?limit=2"),
                [("total", 10), ("current_page", 1), ("per_page", 2), ("last_page", 5)])

            let occupation = try #require(ids(all).first)
            let shown = try await me.get("/api/occupations/\(occupation)")
            #expect(shown.status == .ok)
            expectStructure(shown.data, Self.structure)
            expectFragment(shown, [("object", "occupation"), ("id", .int(occupation)), ("title", "Job 1")])
            // The company in full, the contact short.
            #expect(shown.data?["company"]?["object"] == "company")
            #expect(shown.data?["company"]?["name"] == "Central Perk")
            #expect(shown.data?["contact"]?["object"] == "contact")
            #expect(shown.data?["contact"]?["first_name"] == "Rachel")
            expectNotFound(try await me.get("/api/occupations/0"))

            // Monica lists occupations only for the whole account.
            let ofContact = try await me.get("/api/contacts/\(contact)/occupations")
            #expect(ofContact.status == .notFound)
            let unknown = "The route api/contacts/\(contact)/occupations could not be found."
            #expect(ofContact.json == ["message": .string(unknown)])
        }
    }

    @Test(arguments: Engine.available)
    func occupationsAreMadeChangedAndDeleted(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            let contact = try await me.contact("Rachel")
            let company = try await Self.company(me, "Central Perk")
            let named: [(String, JSONTree)] = [("contact_id", .int(contact)), ("company_id", .int(company))]
            func body(_ fields: [(String, JSONTree)]) -> JSONTree { .object(JSONObject(named + fields)) }

            let created = try await me.post("/api/occupations", body([("title", "Waiter")]))
            #expect(created.status == .created)
            expectStructure(created.data, Self.structure)
            let waiter = try #require(created.dataID)
            expectFragment(
                created,
                [
                    ("object", "occupation"), ("id", .int(waiter)), ("title", "Waiter"), ("salary", nil),
                    ("currently_works_here", false), ("start_date", nil),
                ])
            #expect(created.data?["company"]?["id"] == .int(company))
            #expect(created.data?["contact"]?["id"] == .int(contact))

            let full = try await me.post(
                "/api/occupations",
                body([
                    ("title", "Buyer"), ("description", "Fashion"), ("salary", "42000"), ("salary_unit", "year"),
                    ("currently_works_here", "1"), ("start_date", "2015-03-01"), ("end_date", "2017-12-31"),
                ]))
            #expect(full.status == .created)
            expectFragment(
                full,
                [
                    ("description", "Fashion"), ("salary", 42000), ("salary_unit", "year"),
                    ("currently_works_here", true), ("start_date", "2015-03-01"), ("end_date", "2017-12-31"),
                ])
            let buyer = try #require(full.dataID)

            // Monica's update replaces the fields: what is not sent is emptied.
            let updated = try await me.put(
                "/api/occupations/\(buyer)", body([("title", "Commissaire"), ("salary", nil)]))
            #expect(updated.status == .ok)
            #expect(updated.dataID == buyer)
            expectStructure(updated.data, Self.structure)
            expectFragment(
                updated,
                [
                    ("object", "occupation"), ("id", .int(buyer)), ("title", "Commissaire"), ("salary", nil),
                    ("description", nil), ("salary_unit", nil), ("currently_works_here", false), ("end_date", nil),
                ])
            let oneDay = try await me.put(
                "/api/occupations/\(buyer)",
                body([("title", "Temp"), ("start_date", "2016-05-05"), ("end_date", "2016-05-05")]))
            #expect(oneDay.status == .ok, "a job may end the day it began")

            expectDataError(
                try await me.post("/api/occupations"),
                [
                    "The contact id field is required.", "The company id field is required.",
                    "The title field is required.",
                ])
            let refusals: [([(String, JSONTree)], String)] = [
                ([("title", "x"), ("salary", -1)], "The salary must be between 0 and 1000000000000."),
                ([("title", "x"), ("salary", 1_000_000_000_001)], "The salary must be between 0 and 1000000000000."),
                ([("title", "x"), ("salary", 12.5)], "The salary must be an integer."),
                ([("title", "x"), ("salary_unit", "century")], "The selected salary unit is invalid."),
                ([("title", "x"), ("start_date", "2018-02-30")], "The start date does not match the format Y-m-d."),
                (
                    [("title", "x"), ("description", .string(String(repeating: "a", count: 1001)))],
                    "The description must not be greater than 1000 characters."
                ),
                // Kith's check: Monica kept a job that ended before it began.
                (
                    [("title", "x"), ("start_date", "2018-01-01"), ("end_date", "2017-12-31")],
                    "The end date must be a date after or equal to start date."
                ),
            ]
            for (fields, message) in refusals {
                expectDataError(try await me.post("/api/occupations", body(fields)), [message])
                expectDataError(try await me.put("/api/occupations/\(buyer)", body(fields)), [message])
            }
            expectDataError(
                try await me.post(
                    "/api/occupations", ["contact_id": .int(contact), "company_id": 999_999, "title": "x"]),
                ["The selected company id is invalid."])
            expectDataError(
                try await me.post(
                    "/api/occupations", ["contact_id": 999_999, "company_id": .int(company), "title": "x"]),
                ["The selected contact id is invalid."])
            expectDataError(
                try await me.put("/api/occupations/999999", body([("title", "x")])),
                ["The selected occupation id is invalid."])
            // An occupation stays with its contact and its company: Monica finds it by them.
            let monica = try await me.contact("Monica")
            let other = try await Self.company(me, "Alessandro's")
            expectNotFound(
                try await me.put(
                    "/api/occupations/\(buyer)",
                    ["contact_id": .int(monica), "company_id": .int(company), "title": "x"]))
            expectNotFound(
                try await me.put(
                    "/api/occupations/\(buyer)",
                    ["contact_id": .int(contact), "company_id": .int(other), "title": "x"]))
            #expect(try await me.get("/api/occupations/\(buyer)").data?["title"] == "Temp", "refusals change nothing")
            #expect(try await me.get("/api/occupations").json["meta"]?["total"] == 2, "refusals make nothing")

            let deleted = try await me.delete("/api/occupations/\(waiter)")
            #expect(deleted.status == .ok)
            #expect(deleted.json == ["deleted": true, "id": .int(waiter)])
            expectNotFound(try await me.get("/api/occupations/\(waiter)"))
            expectDataError(try await me.delete("/api/occupations/0"), ["The selected occupation id is invalid."])
            #expect(ids(try await me.get("/api/occupations")) == [buyer])
        }
    }

    @Test(arguments: Engine.available)
    func anotherAccountsOccupationsContactsAndCompaniesAreNotFound(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, other, _ in
            let contact = try await me.contact("Rachel")
            let company = try await Self.company(me, "Central Perk")
            let occupation = try await Self.occupation(me, contact: contact, company: company, "Waitress")
            let theirContact = try await other.contact("Janice")
            let theirCompany = try await Self.company(other, "Mattress King")

            let mine: JSONTree = ["contact_id": .int(contact), "company_id": .int(company), "title": "Barista"]
            expectNotFound(try await other.get("/api/occupations/\(occupation)"))
            expectNotFound(try await other.put("/api/occupations/\(occupation)", mine))
            expectNotFound(try await other.delete("/api/occupations/\(occupation)"))
            #expect(try await other.get("/api/occupations").json["meta"]?["total"] == 0)
            expectNotFound(try await other.get("/api/companies/\(company)"))

            // Naming another account's contact or company, in either direction.
            let crossed: [JSONTree] = [
                ["contact_id": .int(theirContact), "company_id": .int(company), "title": "x"],
                ["contact_id": .int(contact), "company_id": .int(theirCompany), "title": "x"],
            ]
            for body in crossed {
                expectNotFound(try await me.post("/api/occupations", body))
                expectNotFound(try await me.put("/api/occupations/\(occupation)", body))
            }
            expectNotFound(try await other.post("/api/occupations", mine))
            #expect(ids(try await me.get("/api/occupations")) == [occupation], "nothing made")
            #expect(try await me.get("/api/occupations/\(occupation)").data?["title"] == "Waitress", "nothing changed")
            #expect(try await other.get("/api/occupations").json["meta"]?["total"] == 0, "nothing made")
        }
    }

    @Test(arguments: Engine.available)
    func deletingAContactDeletesItsOccupations(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            let company = try await Self.company(me, "Central Perk")
            let rachel = try await me.contact("Rachel")
            let gunther = try await me.contact("Gunther")
            _ = try await Self.occupation(me, contact: rachel, company: company, "Waitress")
            let manager = try await Self.occupation(me, contact: gunther, company: company, "Manager")
            _ = try await me.delete("/api/contacts/\(rachel)")
            #expect(ids(try await me.get("/api/occupations")) == [manager])
            #expect(try await me.get("/api/companies/\(company)").status == .ok, "the company stays")
        }
    }
}
