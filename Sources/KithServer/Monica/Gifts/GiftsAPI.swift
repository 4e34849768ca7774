import Foundation
import Hummingbird
import KithCore
import SQLKit

/// `monica_gifts`: ideas, gifts offered and received.
enum GiftTable {
    static let table = MonicaTable(
        name: "monica_gifts",
        columns: [
            .init("uuid", .text), .init("contact_id", .int), .init("name", .text), .init("comment", .text),
            .init("url", .text), .init("amount", .double), .init("status", .text), .init("date", .text),
            .init("recipient_id", .int),
        ])

    static let presenter: RowPresenter = { row, shorts, scope in
        let amount = row.double("amount").flatMap { $0 == 0 ? nil : $0 }
        let value = amount.map { String(format: "%.2f", $0) }
        return .object(
            JSONObject(
                [
                    ("id", .int(row.id)), ("uuid", .nullable(row.text("uuid"))), ("object", "gift"),
                    ("name", .nullable(row.text("name"))), ("comment", .nullable(row.text("comment"))),
                    ("url", .nullable(row.text("url"))), ("amount", .nullable(amount)), ("value", .string(value ?? "")),
                    ("amount_with_currency", .string(value.map { "$" + $0 } ?? "")),
                    ("status", .nullable(row.text("status"))), ("date", .nullable(row.text("date"))),
                    ("recipient", .nullable(row.int("recipient_id").flatMap { shorts[$0] })), ("photos", []),
                    ("contact", .nullable(row.int("contact_id").flatMap { shorts[$0] })),
                ] + row.stamps(scope)))
    }
}

/// `/api/gifts` and `/api/contacts/{id}/gifts`.
struct GiftsAPI {
    static let rules = [
        FieldRules("contact_id", .required, .integer), FieldRules("name", .required, .string, .max(255)),
        FieldRules("status", .required, .oneOf(["idea", "offered", "received"])),
        FieldRules("comment", .nullable, .string, .max(1_000_000)),
        FieldRules("url", .nullable, .string, .max(1_000_000)),
        FieldRules("amount", .nullable, .numeric, .between(-1_000_000_000_000, 1_000_000_000_000)),
        FieldRules("date", .nullable, .dateYMD),
        FieldRules("recipient_id", .nullable, .integer),
    ]
    static let contactColumns = ["contact_id", "recipient_id"]

    func addRoutes(to routes: MonicaRoutes) {
        routes.contactChild(
            "gifts", GiftTable.table, contactColumns: Self.contactColumns, present: GiftTable.presenter, save: save
        ) { scope in try await ResourceSteps.destroy(scope, GiftTable.table, attribute: "gift id", answerText: true) }
    }

    private func save(_ scope: MonicaScope, id: Int64?) async throws -> Response {
        if let id {
            _ = try await scope.read { sql in
                try await ResourceSteps.existing(sql, scope, GiftTable.table, id: id, attribute: "gift id")
            }
        }
        let input = try MonicaValidator.validate(try await scope.input(), Self.rules)
        let contactID = input.int("contact_id") ?? 0
        let recipientID = input.int("recipient_id")
        let values: [String: DBValue] = [
            "contact_id": .int(contactID), "name": .text(input.string("name")), "status": .text(input.string("status")),
            "comment": .text(input.string("comment")), "url": .text(input.string("url")),
            "amount": .double(input.double("amount")), "date": .text(input.date("date")),
            "recipient_id": .int(recipientID),
        ]
        let saved: Int64 = try await scope.write { sql in
            try await ResourceSteps.existing(sql, scope, ContactTable.table, id: contactID, attribute: "contact id")
            if let recipientID {
                try await ResourceSteps.existing(
                    sql, scope, ContactTable.table, id: recipientID, attribute: "recipient id")
            }
            return try await MonicaQueries.save(
                sql, GiftTable.table, account: scope.accountID, id: id, now: scope.now, values)
        }
        return try await ResourceSteps.show(
            scope, GiftTable.table, id: saved, contactColumns: Self.contactColumns, status: id == nil ? .created : .ok,
            GiftTable.presenter)
    }
}
