import Foundation
import Hummingbird
import KithCore
import SQLKit

/// `monica_contact_fields`: an email, a phone number, a profile… of a contact.
enum ContactFieldTable {
    static let table = MonicaTable(
        name: "monica_contact_fields",
        columns: [
            .init("uuid", .text), .init("contact_id", .int), .init("contact_field_type_id", .int), .init("data", .text),
        ])

    static func present(_ row: MonicaRow, types: [Int64: MonicaRow], contact: JSONTree?, _ scope: MonicaScope)
        -> JSONTree
    {
        let type = row.int("contact_field_type_id").flatMap { types[$0] }
        return .object(
            JSONObject(
                [
                    ("id", .int(row.id)), ("uuid", .nullable(row.text("uuid"))), ("object", "contactfield"),
                    ("content", .nullable(row.text("data"))),
                    ("contact_field_type", type.map { ContactFieldTypeTable.present($0, scope) } ?? .null),
                    ("labels", []),
                ] + row.stamps(scope, contact: contact)))
    }
}

/// `monica_contact_field_types`: Email, Phone, Facebook… per account.
enum ContactFieldTypeTable {
    static let table = MonicaTable(
        name: "monica_contact_field_types",
        columns: [
            .init("name", .text), .init("fontawesome_icon", .text), .init("protocol", .text), .init("delible", .bool),
            .init("type", .text),
        ])

    static func present(_ row: MonicaRow, _ scope: MonicaScope) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(row.id)), ("object", "contactfieldtype"), ("name", .nullable(row.text("name"))),
                    ("fontawesome_icon", .nullable(row.text("fontawesome_icon"))),
                    ("protocol", .nullable(row.text("protocol"))), ("delible", .bool(row.bool("delible"))),
                    ("type", .nullable(row.text("type"))),
                ] + row.stamps(scope)))
    }

    static func all(_ sql: any SQLDatabase, account: Int64) async throws -> [Int64: MonicaRow] {
        let rows = try await sql.select().column("*").from(table.name).where("account_id", .equal, account).all()
            .map(table.read)
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
    }
}

/// `/api/contactfields` (no index, as in Monica), `/api/contacts/{id}/contactfields`, `/api/contactfieldtypes`.
struct ContactFieldsAPI {
    static let rules = [
        FieldRules("contact_id", .required, .integer), FieldRules("contact_field_type_id", .required, .integer),
        FieldRules("data", .required, .string, .max(255)), FieldRules("labels", .nullable, .array),
    ]
    static let typeRules = [
        FieldRules("name", .required, .string, .max(255)),
        FieldRules("fontawesome_icon", .nullable, .string, .max(255)),
        FieldRules("protocol", .nullable, .string, .max(255)), FieldRules("delible", .nullable, .boolean),
        FieldRules("type", .nullable, .string, .max(255)),
    ]

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("contacts/{id}/contactfields") { scope in
            let contactID = try scope.id()
            let page = try scope.page()
            return try await scope.read { sql in
                try await ResourceSteps.ownedContact(sql, scope, contactID)
                let (rows, total) = try await MonicaQueries.page(
                    sql, ContactFieldTable.table, account: scope.accountID, filter: equals("contact_id", contactID),
                    page)
                return PageEnvelope(
                    items: try await Self.present(sql, scope, rows), total: total, request: page, path: scope.indexURL
                ).response
            }
        }
        routes.get("contactfields/{id}") { scope in try await show(scope, id: try scope.id()) }
        routes.post("contactfields") { scope in try await save(scope, id: nil) }
        routes.put("contactfields/{id}") { scope in try await save(scope, id: try scope.id()) }
        routes.delete("contactfields/{id}") { scope in
            try await ResourceSteps.destroy(
                scope, ContactFieldTable.table, attribute: "contact field id", answerText: false
            ) { sql, row in
                try await ContactTable.refreshSearchText(
                    sql, account: scope.accountID, contactID: row.int("contact_id") ?? 0)
            }
        }

        let typePresenter: RowPresenter = { row, _, scope in ContactFieldTypeTable.present(row, scope) }
        routes.get("contactfieldtypes") { scope in
            try await ResourceSteps.list(scope, ContactFieldTypeTable.table, contactColumns: [], typePresenter)
        }
        routes.get("contactfieldtypes/{id}") { scope in
            try await ResourceSteps.show(
                scope, ContactFieldTypeTable.table, id: try scope.id(), contactColumns: [], typePresenter)
        }
        routes.post("contactfieldtypes") { scope in try await saveType(scope, id: nil) }
        routes.put("contactfieldtypes/{id}") { scope in try await saveType(scope, id: try scope.id()) }
        routes.delete("contactfieldtypes/{id}") { scope in
            try await ResourceSteps.destroy(scope, ContactFieldTypeTable.table, answerText: false) { _, row in
                // Thrown inside the deletion's transaction, so nothing is deleted.
                guard row.bool("delible") else {
                    throw MonicaError.invalid("The \(row.text("name") ?? "") field type can't be deleted.")
                }
            }
        }
    }

    static func present(_ sql: any SQLDatabase, _ scope: MonicaScope, _ rows: [MonicaRow]) async throws -> [JSONTree] {
        let types = try await ContactFieldTypeTable.all(sql, account: scope.accountID)
        let shorts = try await ContactShorts.load(sql, scope, ids: rows.compactMap { $0.int("contact_id") })
        return rows.map {
            ContactFieldTable.present($0, types: types, contact: $0.int("contact_id").flatMap { shorts[$0] }, scope)
        }
    }

    private func show(_ scope: MonicaScope, id: Int64, status: HTTPResponse.Status = .ok) async throws -> Response {
        try await scope.read { sql in
            guard let row = try await MonicaQueries.find(sql, ContactFieldTable.table, account: scope.accountID, id: id)
            else { throw MonicaError.notFound }
            return MonicaResponse.data(try await Self.present(sql, scope, [row])[0], status: status)
        }
    }

    private func save(_ scope: MonicaScope, id: Int64?) async throws -> Response {
        let input = try MonicaValidator.validate(try await scope.input(), Self.rules)
        let contactID = input.int("contact_id") ?? 0
        let typeID = input.int("contact_field_type_id") ?? 0
        let values: [String: DBValue] = [
            "contact_id": .int(contactID), "contact_field_type_id": .int(typeID), "data": .text(input.string("data")),
        ]
        let saved: Int64 = try await scope.write { sql in
            var previousContact: Int64?
            if let id {
                let field = try await ResourceSteps.existing(
                    sql, scope, ContactFieldTable.table, id: id, attribute: "contact field id")
                previousContact = field.int("contact_id")
            }
            try await ResourceSteps.existing(sql, scope, ContactTable.table, id: contactID, attribute: "contact id")
            try await ResourceSteps.existing(
                sql, scope, ContactFieldTypeTable.table, id: typeID, attribute: "contact field type id")
            let savedID = try await MonicaQueries.save(
                sql, ContactFieldTable.table, account: scope.accountID, id: id, now: scope.now, values)
            // An email moved or changed changes what search finds, for both contacts.
            for contact in Set([contactID, previousContact].compactMap { $0 }) {
                try await ContactTable.refreshSearchText(sql, account: scope.accountID, contactID: contact)
            }
            return savedID
        }
        return try await show(scope, id: saved, status: id == nil ? .created : .ok)
    }

    private func saveType(_ scope: MonicaScope, id: Int64?) async throws -> Response {
        let input = try MonicaValidator.validate(try await scope.input(), Self.typeRules)
        var values: [String: DBValue] = [
            "name": .text(input.string("name")), "fontawesome_icon": .text(input.string("fontawesome_icon")),
            "protocol": .text(input.string("protocol")), "type": .text(input.string("type")),
        ]
        if input.has("delible") || id == nil { values["delible"] = .bool(input.bool("delible") ?? true) }
        let saved: Int64 = try await scope.write { [values] sql in
            if let id,
                try await MonicaQueries.find(sql, ContactFieldTypeTable.table, account: scope.accountID, id: id) == nil
            {
                throw MonicaError.notFound
            }
            return try await MonicaQueries.save(
                sql, ContactFieldTypeTable.table, account: scope.accountID, id: id, now: scope.now, values)
        }
        return try await ResourceSteps.show(
            scope, ContactFieldTypeTable.table, id: saved, contactColumns: [], status: id == nil ? .created : .ok
        ) { row, _, scope in ContactFieldTypeTable.present(row, scope) }
    }
}
