import Foundation
import Hummingbird
import KithCore
import SQLKit

/// `monica_notes`.
enum NoteTable {
    static let table = MonicaTable(
        name: "monica_notes",
        columns: [
            .init("uuid", .text), .init("contact_id", .int), .init("body", .text), .init("is_favorited", .bool),
            .init("favorited_at", .int),
        ])

    static func present(_ row: MonicaRow, contact: JSONTree?, _ scope: MonicaScope) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(row.id)), ("uuid", .nullable(row.text("uuid"))), ("object", "note"),
                    ("body", .nullable(row.text("body"))), ("is_favorited", .bool(row.bool("is_favorited"))),
                    ("favorited_at", .nullable(MonicaTimestamp.format(millis: row.int("favorited_at")))),
                    ("url", .string(scope.url("notes/\(row.id)"))),
                ] + row.stamps(scope, contact: contact)))
    }

    static let presenter: RowPresenter = { row, shorts, scope in
        present(row, contact: row.int("contact_id").flatMap { shorts[$0] }, scope)
    }

    /// Each contact's `count` newest notes, for `with=contactfields`.
    static func latest(_ sql: any SQLDatabase, account: Int64, of contactIDs: [Int64], count: Int) async throws
        -> [MonicaRow]
    {
        let all = try await sql.select().column("*").from(table.name).where("account_id", .equal, account)
            .where("contact_id", .in, SQLBind.group(contactIDs)).orderBy("created_at", .descending)
            .orderBy("id", .descending).all().map(table.read)
        var takenByContact: [Int64: Int] = [:]
        return all.filter { row in
            let contact = row.int("contact_id") ?? 0
            let taken = takenByContact[contact, default: 0] + 1
            takenByContact[contact] = taken
            return taken <= count
        }
    }
}

/// `/api/notes` and `/api/contacts/{id}/notes`.
struct NotesAPI {
    static let rules = [
        FieldRules("body", .required, .string, .max(100_000)), FieldRules("contact_id", .required, .integer),
        FieldRules("is_favorited", .nullable, .boolean),
    ]
    static let sortable: Set<String> = ["created_at", "updated_at", "favorited_at"]

    func addRoutes(to routes: MonicaRoutes) {
        routes.contactChild(
            "notes", NoteTable.table, sortable: Self.sortable, present: NoteTable.presenter, save: save
        ) { scope in try await ResourceSteps.destroy(scope, NoteTable.table, answerText: false) }
    }

    private func save(_ scope: MonicaScope, id: Int64?) async throws -> Response {
        let input = try MonicaValidator.validate(try await scope.input(), Self.rules)
        let contactID = input.int("contact_id") ?? 0
        let favorite = input.bool("is_favorited") ?? false
        let saved: Int64 = try await scope.write { sql in
            if let id, try await MonicaQueries.find(sql, NoteTable.table, account: scope.accountID, id: id) == nil {
                throw MonicaError.notFound
            }
            try await ResourceSteps.ownedContact(sql, scope, contactID)
            var values: [String: DBValue] = [
                "body": .text(input.string("body")), "contact_id": .int(contactID),
                "favorited_at": favorite ? .int(scope.now) : .null,
            ]
            if input.has("is_favorited") || id == nil { values["is_favorited"] = .bool(favorite) }
            return try await MonicaQueries.save(
                sql, NoteTable.table, account: scope.accountID, id: id, now: scope.now, values)
        }
        return try await ResourceSteps.show(
            scope, NoteTable.table, id: saved, status: id == nil ? .created : .ok, NoteTable.presenter)
    }
}
