import Foundation
import Hummingbird
import KithCore
import SQLKit

/// `monica_addresses`: Monica keeps the place apart from the address; Kith keeps one row.
enum AddressTable {
    static let table = MonicaTable(
        name: "monica_addresses",
        columns: [
            .init("uuid", .text), .init("contact_id", .int), .init("name", .text), .init("street", .text),
            .init("city", .text), .init("province", .text), .init("postal_code", .text), .init("country", .text),
            .init("latitude", .double), .init("longitude", .double),
        ])

    static let placeFields = ["street", "city", "province", "postal_code"]

    static func present(_ row: MonicaRow, contact: JSONTree?, _ scope: MonicaScope) -> JSONTree {
        var object = JSONObject([
            ("id", .int(row.id)), ("uuid", .nullable(row.text("uuid"))), ("object", "address"),
            ("name", .nullable(row.text("name"))),
        ])
        for field in placeFields { object[field] = .nullable(row.text(field)) }
        object["latitude"] = .nullable(row.double("latitude"))
        object["longitude"] = .nullable(row.double("longitude"))
        object["country"] = row.text("country").map(Countries.present) ?? .null
        object["url"] = .string(scope.url("addresses/\(row.id)"))
        for (key, value) in row.stamps(scope, contact: contact) { object[key] = value }
        return .object(object)
    }

    static let presenter: RowPresenter = { row, shorts, scope in
        present(row, contact: row.int("contact_id").flatMap { shorts[$0] }, scope)
    }
}

/// `/api/addresses` and `/api/contacts/{id}/addresses`.
struct AddressesAPI {
    static let rules = [
        FieldRules("contact_id", .required, .integer),
        FieldRules("name", .nullable, .string, .max(255)), FieldRules("street", .nullable, .string, .max(255)),
        FieldRules("city", .nullable, .string, .max(255)), FieldRules("province", .nullable, .string, .max(255)),
        FieldRules("postal_code", .nullable, .string, .max(255)), FieldRules("country", .nullable, .string, .max(3)),
        FieldRules("latitude", .nullable, .numeric, .between(-90, 90)),
        FieldRules("longitude", .nullable, .numeric, .between(-180, 180)),
        FieldRules("labels", .nullable, .array),
    ]

    func addRoutes(to routes: MonicaRoutes) {
        routes.contactChild("addresses", AddressTable.table, present: AddressTable.presenter, save: save) { scope in
            try await ResourceSteps.destroy(scope, AddressTable.table, attribute: "address id", answerText: false)
        }
    }

    /// Create, or replace every field of an existing address (Monica's update resets what is not sent).
    private func save(_ scope: MonicaScope, id: Int64?) async throws -> Response {
        let input = try MonicaValidator.validate(try await scope.input(), Self.rules)
        var values: [String: DBValue] = ["name": .text(input.string("name"))]
        for field in AddressTable.placeFields { values[field] = .text(input.string(field)) }
        if let country = input.string("country") {
            guard let code = Countries.code(country) else {
                throw MonicaError.invalid("The country must be an ISO 3166 country code, such as FR or US.")
            }
            values["country"] = .text(code)
        } else {
            values["country"] = .null
        }
        values["latitude"] = .double(input.double("latitude"))
        values["longitude"] = .double(input.double("longitude"))
        guard values.values.contains(where: { $0 != .null }) else {
            throw MonicaError.invalid(
                "The address is empty: give at least a name, street, city, province, postal code, country or coordinates."
            )
        }
        let contactID = input.int("contact_id") ?? 0
        values["contact_id"] = .int(contactID)
        let fields = values
        let savedID: Int64 = try await scope.write { sql in
            if let id {
                let address = try await ResourceSteps.existing(
                    sql, scope, AddressTable.table, id: id, attribute: "address id")
                try await ResourceSteps.existing(sql, scope, ContactTable.table, id: contactID, attribute: "contact id")
                // Monica finds the address by its contact too: naming another contact is 404.
                guard address.int("contact_id") == contactID else { throw MonicaError.notFound }
            } else {
                try await ResourceSteps.existing(sql, scope, ContactTable.table, id: contactID, attribute: "contact id")
            }
            return try await MonicaQueries.save(
                sql, AddressTable.table, account: scope.accountID, id: id, now: scope.now, fields)
        }
        return try await ResourceSteps.show(
            scope, AddressTable.table, id: savedID, status: id == nil ? .created : .ok, AddressTable.presenter)
    }
}
