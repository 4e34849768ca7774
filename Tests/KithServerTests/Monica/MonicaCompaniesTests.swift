import Foundation
import HTTPTypes
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// What Monica's `ApiCompanyControllerTest` asserts, Kith's bounds on the number of employees,
/// and what deleting a company does to the occupations there.
@Suite("Monica API: companies")
struct MonicaCompaniesTests {
    static let structure = [
        "id", "object", "name", "website", "number_of_employees", "account.id", "created_at", "updated_at",
    ]

    @Test(arguments: Engine.available)
    func companiesAreListedShownAndPaginated(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, other, _ in
            for index in 1...10 {
                let made = try await me.post("/api/companies", ["name": .string("Company \(index)")])
                #expect(made.status == .created, "\(made.text)")
            }
            let all = try await me.get("/api/companies")
            #expect(all.status == .ok)
            expectStructure(all.json, Self.structure.map { "data.*.\($0)" })
            expectFragment(
                try await me.get("/api/companies?limit=1"),
                [("total", 10), ("current_page", 1), ("per_page", 1), ("last_page", 10)])
            expectFragment(
                try await me.get("/api/companies?limit=2"),
                [("total", 10), ("current_page", 1), ("per_page", 2), ("last_page", 5)])

            let company = try #require(ids(all).first)
            let shown = try await me.get("/api/companies/\(company)")
            #expect(shown.status == .ok)
            expectStructure(shown.data, Self.structure)
            expectFragment(shown, [("object", "company"), ("id", .int(company)), ("name", "Company 1")])
            expectNotFound(try await me.get("/api/companies/0"))

            expectNotFound(try await other.get("/api/companies/\(company)"))
            #expect(try await other.get("/api/companies").json["meta"]?["total"] == 0)
        }
    }

    @Test(arguments: Engine.available)
    func companiesAreMadeChangedAndDeleted(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, other, _ in
            let created = try await me.post("/api/companies", ["name": "Central Perk"])
            #expect(created.status == .created)
            expectStructure(created.data, Self.structure)
            let company = try #require(created.dataID)
            expectFragment(
                created,
                [
                    ("object", "company"), ("id", .int(company)), ("name", "Central Perk"), ("website", nil),
                    ("number_of_employees", nil),
                ])

            let updated = try await me.put(
                "/api/companies/\(company)",
                ["name": "Central Perk Central", "website": "https://centralperk.example", "number_of_employees": 30])
            #expect(updated.status == .ok)
            #expect(updated.dataID == company)
            expectStructure(updated.data, Self.structure)
            expectFragment(
                updated,
                [
                    ("object", "company"), ("id", .int(company)), ("name", "Central Perk Central"),
                    ("website", "https://centralperk.example"), ("number_of_employees", 30),
                ])
            // Monica's update replaces every field: what is not sent is emptied.
            let replaced = try await me.put("/api/companies/\(company)", ["name": "Central Perk"])
            expectFragment(replaced, [("name", "Central Perk"), ("website", nil), ("number_of_employees", nil)])
            let largest = try await me.post("/api/companies", ["name": "Huge", "number_of_employees": "10000000"])
            expectFragment(largest, [("number_of_employees", 10_000_000)])

            expectDataError(try await me.post("/api/companies"), ["The name field is required."])
            expectDataError(
                try await me.post("/api/companies", ["name": .string(String(repeating: "a", count: 256))]),
                ["The name must not be greater than 255 characters."])
            for count: JSONTree in [-1, 10_000_001] {
                expectDataError(
                    try await me.post("/api/companies", ["name": "Typo", "number_of_employees": count]),
                    ["The number of employees must be between 0 and 10000000."])
            }
            expectDataError(
                try await me.post("/api/companies", ["name": "Typo", "number_of_employees": "many"]),
                ["The number of employees must be an integer."])
            expectDataError(
                try await me.put("/api/companies/999999", ["name": "Nowhere"]), ["The selected company id is invalid."])
            expectNotFound(try await other.put("/api/companies/\(company)", ["name": "Central Perk"]))
            expectNotFound(try await other.delete("/api/companies/\(company)"))
            let version = try #require(replaced.headers[.eTag])
            _ = try await me.put("/api/companies/\(company)", ["name": "Central Perk Again"])
            let stale = try await me.call(
                .put, "/api/companies/\(company)", ["name": "Overwritten"], headers: [.ifMatch: version])
            #expect(stale.status == .preconditionFailed && stale["error"]?["error_code"] == 43, "\(stale.text)")
            #expect(try await me.get("/api/companies/\(company)").data?["name"] == "Central Perk Again")
            #expect(try await me.get("/api/companies").json["meta"]?["total"] == 2, "refusals make nothing")

            let deleted = try await me.delete("/api/companies/\(company)")
            #expect(deleted.status == .ok)
            #expect(deleted.json == ["deleted": true, "id": .int(company)])
            expectNotFound(try await me.get("/api/companies/\(company)"))
            expectDataError(try await me.delete("/api/companies/0"), ["The selected company id is invalid."])
        }
    }

    @Test(arguments: Engine.available)
    func deletingACompanyDeletesTheOccupationsThere(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            let contact = try await me.contact("Rachel")
            let closing = try await MonicaOccupationsTests.company(me, "Central Perk")
            let staying = try await MonicaOccupationsTests.company(me, "Ralph Lauren")
            for (company, title) in [(closing, "Waitress"), (closing, "Barista"), (staying, "Buyer")] {
                let made = try await me.post(
                    "/api/occupations",
                    ["contact_id": .int(contact), "company_id": .int(company), "title": .string(title)])
                #expect(made.status == .created, "\(made.text)")
            }
            _ = try await me.delete("/api/companies/\(closing)")
            let left = try await me.get("/api/occupations")
            #expect(left.data?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Buyer"])
            #expect(left.data?[0]?["company"]?["id"] == .int(staying))
        }
    }
}
