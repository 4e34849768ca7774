import Foundation
import HTTPTypes
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// What Monica's debts API tests assert, Kith's bounds on an amount, what a debt does with its
/// contact, and that another account never sees one.
@Suite("Monica API: debts")
struct MonicaDebtsTests {
    static let structure = [
        "id", "uuid", "object", "in_debt", "status", "amount", "value", "amount_with_currency", "reason", "account.id",
        "contact.id", "created_at", "updated_at",
    ]

    static func debt(_ contact: Int64, _ fields: [(String, JSONTree)] = []) -> JSONTree {
        var body = JSONObject([
            ("contact_id", .int(contact)), ("in_debt", "yes"), ("status", "inprogress"), ("amount", 42),
            ("reason", "that's why"),
        ])
        for (key, value) in fields { body[key] = value }
        return .object(body)
    }

    @Test(arguments: Engine.available)
    func debtsAreListedShownMadeChangedAndDeleted(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            let john = try await me.contact("John")
            let jane = try await me.contact("Jane")
            let created = try await me.post("/api/debts", Self.debt(john))
            #expect(created.status == .created, "\(created.text)")
            expectStructure(created.data, Self.structure)
            expectFragment(
                created,
                [
                    ("object", "debt"), ("in_debt", "yes"), ("status", "inprogress"), ("amount", 42),
                    ("value", "42.00"), ("amount_with_currency", "$42.00"), ("reason", "that's why"),
                    ("created_at", "2018-01-01T07:00:00Z"),
                ])
            #expect(created.data?["contact"]?["id"] == .int(john))
            let debt = try #require(created.dataID)
            let janes = try #require(
                try await me.post(
                    "/api/debts", Self.debt(jane, [("in_debt", "no"), ("status", "completed"), ("amount", "12.5")])
                ).dataID)

            let all = try await me.get("/api/debts")
            #expect(all.status == .ok)
            expectStructure(all.json, Self.structure.map { "data.*.\($0)" })
            #expect(ids(all) == [debt, janes])
            #expect(ids(try await me.get("/api/debts?sort=-created_at&limit=1")) == [janes])
            let johns = try await me.get("/api/contacts/\(john)/debts")
            #expect(ids(johns) == [debt])
            expectMissing(johns, [("object", "debt"), ("id", .int(janes))])
            let shown = try await me.get("/api/debts/\(janes)")
            expectStructure(shown.data, Self.structure)
            expectFragment(shown, [("in_debt", "no"), ("status", "completed"), ("amount", 12.5), ("value", "12.50")])
            expectMissing(shown, [("object", "debt"), ("id", .int(debt))])
            expectNotFound(try await me.get("/api/contacts/0/debts"))
            expectNotFound(try await me.get("/api/debts/0"))
            #expect(try await me.get("/api/debts?sort=called_at").status == .badRequest)

            let missing = [
                "The in debt field is required.", "The status field is required.", "The amount field is required.",
            ]
            expectDataError(try await me.post("/api/debts", ["contact_id": .int(john)]), missing)

            let updated = try await me.put(
                "/api/debts/\(debt)",
                Self.debt(john, [("status", "completed"), ("amount", 142.01), ("reason", "voilà")]))
            #expect(updated.status == .ok, "\(updated.text)")
            expectStructure(updated.data, Self.structure)
            expectFragment(
                updated,
                [
                    ("id", .int(debt)), ("in_debt", "yes"), ("status", "completed"), ("amount", 142.01),
                    ("value", "142.01"), ("amount_with_currency", "$142.01"), ("reason", "voilà"),
                ])
            expectDataError(try await me.put("/api/debts/\(debt)", ["contact_id": .int(john)]), missing)
            // As Monica: a debt nobody has is not found, before its input is read.
            expectNotFound(try await me.put("/api/debts/999999", Self.debt(john)))
            expectNotFound(try await me.put("/api/debts/999999", [:]))

            #expect(try await me.delete("/api/debts/\(debt)").json == ["deleted": true, "id": .int(debt)])
            expectNotFound(try await me.get("/api/debts/\(debt)"))
            expectNotFound(try await me.delete("/api/debts/\(debt)"))
            expectNotFound(try await me.delete("/api/debts/0"))
            expectNotFound(try await me.delete("/api/debts/abc"))
            #expect(ids(try await me.get("/api/debts")) == [janes])
        }
    }

    @Test(arguments: Engine.available)
    func anAmountIsNeverNegativeAndWhoOwesIsSaidByInDebt(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let john = try await me.contact("John")
            let debt = try #require(try await me.post("/api/debts", Self.debt(john)).dataID)
            let refused: [([(String, JSONTree)], [String])] = [
                ([("amount", -0.01)], ["The amount must be at least 0."]),
                ([("amount", 1_000_000_000_001)], ["The amount must be between 0 and 1000000000000."]),
                ([("amount", "a lot")], ["The amount must be a number."]),
                ([("amount", "1e400")], ["The amount must be a number."]),
                ([("in_debt", "maybe")], ["The selected in debt is invalid."]),
                ([("in_debt", 1)], ["The in debt must be a string."]),
                ([("status", "paid")], ["The selected status is invalid."]),
                (
                    [("reason", .string(String(repeating: "x", count: 1_000_001)))],
                    ["The reason must not be greater than 1000000 characters."]
                ),
                ([("contact_id", "john")], ["The contact id must be an integer."]),
                (
                    [("in_debt", "maybe"), ("status", "paid"), ("amount", -1)],
                    [
                        "The selected in debt is invalid.", "The selected status is invalid.",
                        "The amount must be at least 0.",
                    ]
                ),
            ]
            for (fields, messages) in refused {
                expectDataError(try await me.post("/api/debts", Self.debt(john, fields)), messages)
                expectDataError(try await me.put("/api/debts/\(debt)", Self.debt(john, fields)), messages)
            }
            // Nothing refused was written.
            #expect(ids(try await me.get("/api/debts")) == [debt])
            expectFragment(
                try await me.get("/api/debts/\(debt)"),
                [("amount", 42), ("in_debt", "yes"), ("status", "inprogress"), ("reason", "that's why")])

            // A debt of nothing shows no amount, as Monica shows a zero one; a reason may be left out.
            let nothing = try await me.post("/api/debts", Self.debt(john, [("amount", 0), ("reason", nil)]))
            #expect(nothing.status == .created)
            expectFragment(nothing, [("amount", nil), ("value", ""), ("amount_with_currency", ""), ("reason", nil)])
            let most = try await me.post("/api/debts", Self.debt(john, [("amount", 1_000_000_000_000)]))
            expectFragment(most, [("value", "1000000000000.00")])
        }
    }

    @Test(arguments: Engine.available)
    func aDebtBelongsToItsContact(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let john = try await me.contact("John")
            let jane = try await me.contact("Jane")
            let debt = try #require(try await me.post("/api/debts", Self.debt(john)).dataID)
            #expect(try await me.get("/api/contacts/\(john)").data?["statistics"]?["number_of_debts"] == 1)

            // As Monica, an update names the contact, and the debt moves to it.
            let moved = try await me.put("/api/debts/\(debt)", Self.debt(jane))
            #expect(moved.data?["contact"]?["id"] == .int(jane))
            #expect(ids(try await me.get("/api/contacts/\(john)/debts")).isEmpty)
            #expect(ids(try await me.get("/api/contacts/\(jane)/debts")) == [debt])
            // A contact nobody has is not found (Monica looks it up in the account; no `exists` rule).
            expectNotFound(try await me.post("/api/debts", Self.debt(999_999)))

            // Merging Jane into John brings her debts; deleting John takes them.
            #expect(try await me.post("/api/contacts/\(john)/merge", ["contact_id": .int(jane)]).status == .ok)
            #expect(ids(try await me.get("/api/contacts/\(john)/debts")) == [debt])
            #expect(try await me.delete("/api/contacts/\(john)").status == .ok)
            expectNotFound(try await me.get("/api/debts/\(debt)"))
            #expect(try await me.get("/api/debts").json["meta"]?["total"] == 0)
        }
    }

    @Test(arguments: Engine.available)
    func anotherAccountsDebtsAndContactsAreNotThere(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let john = try await me.contact("John")
            let debt = try #require(try await me.post("/api/debts", Self.debt(john)).dataID)
            let foreign = try await other.contact("Other")

            expectNotFound(try await other.get("/api/debts/\(debt)"))
            expectNotFound(try await other.get("/api/contacts/\(john)/debts"))
            expectNotFound(try await other.put("/api/debts/\(debt)", Self.debt(foreign)))
            expectNotFound(try await other.delete("/api/debts/\(debt)"))
            #expect(try await other.get("/api/debts").json["meta"]?["total"] == 0)

            // Monica's "bad account": a debt for another account's contact, made or moved there.
            expectNotFound(try await me.post("/api/debts", Self.debt(foreign)))
            expectNotFound(try await me.put("/api/debts/\(debt)", Self.debt(foreign, [("status", "completed")])))
            let mine = try await me.get("/api/debts/\(debt)")
            #expect(mine.data?["contact"]?["id"] == .int(john) && mine.data?["status"] == "inprogress")
            #expect(ids(try await me.get("/api/debts")) == [debt])
        }
    }

    @Test(arguments: Engine.available)
    func aChangeAgainstAnOldVersionIsRefused(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let john = try await me.contact("John")
            let made = try await me.post("/api/debts", Self.debt(john))
            let debt = try #require(made.dataID)
            let loaded = try #require(made.headers[.eTag])
            let changed = try await me.call(
                .put, "/api/debts/\(debt)", Self.debt(john, [("status", "completed")]), headers: [.ifMatch: loaded])
            #expect(changed.status == .ok)
            let stale = try await me.call(
                .put, "/api/debts/\(debt)", Self.debt(john, [("amount", 1)]), headers: [.ifMatch: loaded])
            #expect(stale.status == .preconditionFailed && stale["error"]?["error_code"] == 43)
            let staleDelete = try await me.call(.delete, "/api/debts/\(debt)", headers: [.ifMatch: loaded])
            #expect(staleDelete.status == .preconditionFailed)
            expectFragment(try await me.get("/api/debts/\(debt)"), [("status", "completed"), ("amount", 42)])
        }
    }
}
