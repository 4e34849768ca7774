import Foundation
import Hummingbird
import KithCore
import SQLKit

/// `/api/genders`.
struct GendersAPI {
    static let rules = [
        FieldRules("name", .required, .string, .max(255)), FieldRules("type", .required, .oneOf(["M", "F", "O"])),
    ]
    static let presenter: RowPresenter = { row, _, scope in GenderTable.present(row, scope) }

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("genders") { scope in
            try await ResourceSteps.list(scope, GenderTable.table, contactColumns: [], Self.presenter)
        }
        routes.get("genders/{id}") { scope in
            try await ResourceSteps.show(
                scope, GenderTable.table, id: try scope.id(), contactColumns: [], Self.presenter)
        }
        routes.post("genders") { scope in try await save(scope, id: nil) }
        routes.put("genders/{id}") { scope in try await save(scope, id: try scope.id()) }
        routes.delete("genders/{id}") { scope in
            try await ResourceSteps.destroy(scope, GenderTable.table, attribute: "gender id", answerText: false)
        }
    }

    private func save(_ scope: MonicaScope, id: Int64?) async throws -> Response {
        let input = try MonicaValidator.validate(try await scope.input(), Self.rules)
        let values: [String: DBValue] = ["name": .text(input.string("name")), "type": .text(input.string("type"))]
        let saved: Int64 = try await scope.write { sql in
            if let id {
                try await ResourceSteps.existing(sql, scope, GenderTable.table, id: id, attribute: "gender id")
                try await MonicaQueries.update(
                    sql, GenderTable.table, account: scope.accountID, id: id, now: scope.now, values)
                return id
            }
            return try await MonicaQueries.insert(
                sql, GenderTable.table, account: scope.accountID, now: scope.now, values)
        }
        return try await ResourceSteps.show(
            scope, GenderTable.table, id: saved, contactColumns: [], status: id == nil ? .created : .ok, Self.presenter)
    }
}
