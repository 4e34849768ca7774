import Foundation
import Hummingbird
import KithCore
import SQLKit

/// `/api/activities`, `/api/contacts/{id}/activities`, `/api/activitytypes`, `/api/activitytypecategories`.
struct ActivitiesAPI {
    static let rules = [
        FieldRules("activity_type_id", .nullable, .integer), FieldRules("summary", .required, .string, .max(255)),
        FieldRules("description", .nullable, .string, .max(1_000_000)), FieldRules("happened_at", .required, .dateYMD),
        FieldRules("emotions", .nullable, .array), FieldRules("contacts", .required, .array),
    ]
    static let typeRules = [
        FieldRules("activity_type_category_id", .required, .integer), FieldRules("name", .nullable, .string, .max(255)),
        FieldRules("translation_key", .nullable, .string, .max(255)),
    ]
    static let categoryRules = [
        FieldRules("name", .nullable, .string, .max(255)), FieldRules("translation_key", .nullable, .string, .max(255)),
    ]

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("activities") { scope in
            try await presentPage(scope, filter: nil)
        }
        routes.get("contacts/{id}/activities") { scope in
            let contactID = try scope.id()
            _ = try await scope.read { sql in try await ResourceSteps.ownedContact(sql, scope, contactID) }
            return try await presentPage(scope, filter: contactID)
        }
        routes.get("activities/{id}") { scope in try await show(scope, id: try scope.id()) }
        routes.post("activities") { scope in try await save(scope, id: nil) }
        routes.put("activities/{id}") { scope in try await save(scope, id: try scope.id()) }
        routes.delete("activities/{id}") { scope in
            try await ResourceSteps.destroy(scope, ActivityTable.table, attribute: "activity id", answerText: true)
        }

        routes.get("activitytypes") { scope in try await listTypes(scope) }
        routes.get("activitytypes/{id}") { scope in try await showType(scope, id: try scope.id()) }
        routes.post("activitytypes") { scope in try await saveType(scope, id: nil) }
        routes.put("activitytypes/{id}") { scope in try await saveType(scope, id: try scope.id()) }
        routes.delete("activitytypes/{id}") { scope in
            try await ResourceSteps.destroy(
                scope, ActivityTypeTable.table, attribute: "activity type id", answerText: false)
        }
        let categoryPresenter: RowPresenter = { row, _, scope in ActivityTypeTable.presentCategory(row, scope) }
        routes.get("activitytypecategories") { scope in
            try await ResourceSteps.list(scope, ActivityTypeTable.categories, contactColumns: [], categoryPresenter)
        }
        routes.get("activitytypecategories/{id}") { scope in
            try await ResourceSteps.show(
                scope, ActivityTypeTable.categories, id: try scope.id(), contactColumns: [], categoryPresenter)
        }
        routes.post("activitytypecategories") { scope in try await saveCategory(scope, id: nil) }
        routes.put("activitytypecategories/{id}") { scope in try await saveCategory(scope, id: try scope.id()) }
        routes.delete("activitytypecategories/{id}") { scope in
            try await ResourceSteps.destroy(
                scope, ActivityTypeTable.categories, attribute: "activity type category id", answerText: false)
        }
    }

    /// A page of activities (optionally of one attendee), with Monica's yearly statistics.
    private func presentPage(_ scope: MonicaScope, filter contactID: Int64?) async throws -> Response {
        let page = try scope.page()
        return try await scope.read { sql in
            let attended = contactID.map {
                linked("id", through: "monica_activity_contacts", select: "activity_id", where: "contact_id", is: $0)
            }
            let (rows, total) = try await MonicaQueries.page(
                sql, ActivityTable.table, account: scope.accountID, filter: attended, page)
            var envelope = PageEnvelope(
                items: try await Self.present(sql, scope, rows), total: total, request: page, path: scope.indexURL)
            envelope.extraMeta = [
                ("statistics", try await ActivityTable.yearlyStatistics(sql, account: scope.accountID))
            ]
            return envelope.response
        }
    }

    static func present(_ sql: any SQLDatabase, _ scope: MonicaScope, _ rows: [MonicaRow]) async throws -> [JSONTree] {
        let attendees = try await ActivityTable.attendees(sql, of: rows.map(\.id))
        let shorts = try await ContactShorts.load(sql, scope, ids: attendees.values.flatMap { $0 })
        let types = try await MonicaQueries.all(
            sql, ActivityTypeTable.table, account: scope.accountID, where: "id",
            in: rows.compactMap { $0.int("activity_type_id") })
        let categories = try await MonicaQueries.all(
            sql, ActivityTypeTable.categories, account: scope.accountID, where: "id",
            in: types.compactMap { $0.int("activity_type_category_id") })
        let typeByID = Dictionary(uniqueKeysWithValues: types.map { ($0.id, $0) })
        let categoryByID = Dictionary(uniqueKeysWithValues: categories.map { ($0.id, $0) })
        return rows.map { row in
            let people = (attendees[row.id] ?? []).compactMap { shorts[$0] }
            let type = row.int("activity_type_id").flatMap { typeByID[$0] }
            return .object(
                JSONObject(
                    [
                        ("id", .int(row.id)), ("uuid", .nullable(row.text("uuid"))), ("object", "activity"),
                        ("summary", .nullable(row.text("summary"))),
                        ("description", .nullable(row.text("description"))),
                        ("happened_at", .nullable(row.text("happened_at"))),
                        (
                            "activity_type",
                            type.map {
                                ActivityTypeTable.present(
                                    $0, category: $0.int("activity_type_category_id").flatMap { categoryByID[$0] },
                                    scope)
                            } ?? .null
                        ),
                        ("attendees", ["total": .int(Int64(people.count)), "contacts": .array(people)]),
                        ("emotions", []), ("url", .string(scope.url("activities/\(row.id)"))),
                    ] + row.stamps(scope)))
        }
    }

    private func show(_ scope: MonicaScope, id: Int64, status: HTTPResponse.Status = .ok) async throws -> Response {
        try await scope.read { sql in
            guard let row = try await MonicaQueries.find(sql, ActivityTable.table, account: scope.accountID, id: id)
            else {
                throw MonicaError.notFound
            }
            return MonicaResponse.data(try await Self.present(sql, scope, [row])[0], status: status)
        }
    }

    private func save(_ scope: MonicaScope, id: Int64?) async throws -> Response {
        if let id {
            _ = try await scope.read { sql in
                try await ResourceSteps.existing(sql, scope, ActivityTable.table, id: id, attribute: "activity id")
            }
        }
        let input = try MonicaValidator.validate(try await scope.input(), Self.rules)
        let contactIDs = try (input.array("contacts") ?? []).map { item -> Int64 in
            guard let id = ValidInput.integer(item) else {
                throw MonicaError.invalid("The contacts must be contact ids.")
            }
            return id
        }
        // Kith keeps no emotions, so any emotion named is one that does not exist.
        if !(input.array("emotions") ?? []).isEmpty { throw MonicaError.notFound }
        let typeID = input.int("activity_type_id")
        let values: [String: DBValue] = [
            "activity_type_id": .int(typeID), "summary": .text(input.string("summary")),
            "description": .text(input.string("description")), "happened_at": .text(input.date("happened_at")),
        ]
        let saved: Int64 = try await scope.write { sql in
            for contactID in contactIDs { try await ResourceSteps.ownedContact(sql, scope, contactID) }
            if let typeID {
                try await ResourceSteps.existing(
                    sql, scope, ActivityTypeTable.table, id: typeID, attribute: "activity type id")
            }
            let activityID = try await MonicaQueries.save(
                sql, ActivityTable.table, account: scope.accountID, id: id, now: scope.now, values)
            // The attendees are replaced by the ones named.
            try await sql.delete(from: "monica_activity_contacts").where("activity_id", .equal, activityID).run()
            for contactID in Set(contactIDs) {
                try await sql.insert(into: "monica_activity_contacts").columns(
                    "activity_id", "contact_id", "account_id"
                )
                .values(SQLBind(activityID), SQLBind(contactID), SQLBind(scope.accountID)).run()
            }
            return activityID
        }
        return try await show(scope, id: saved, status: id == nil ? .created : .ok)
    }

    private func listTypes(_ scope: MonicaScope) async throws -> Response {
        let page = try scope.page()
        return try await scope.read { sql in
            let (rows, total) = try await MonicaQueries.page(
                sql, ActivityTypeTable.table, account: scope.accountID, page)
            return PageEnvelope(
                items: try await Self.presentTypes(sql, scope, rows), total: total, request: page, path: scope.indexURL
            ).response
        }
    }

    private static func presentTypes(_ sql: any SQLDatabase, _ scope: MonicaScope, _ rows: [MonicaRow]) async throws
        -> [JSONTree]
    {
        let categories = try await MonicaQueries.all(
            sql, ActivityTypeTable.categories, account: scope.accountID, where: "id",
            in: rows.compactMap { $0.int("activity_type_category_id") })
        let byID = Dictionary(uniqueKeysWithValues: categories.map { ($0.id, $0) })
        return rows.map {
            ActivityTypeTable.present($0, category: $0.int("activity_type_category_id").flatMap { byID[$0] }, scope)
        }
    }

    private func showType(_ scope: MonicaScope, id: Int64) async throws -> Response {
        try await scope.read { sql in
            guard let row = try await MonicaQueries.find(sql, ActivityTypeTable.table, account: scope.accountID, id: id)
            else { throw MonicaError.notFound }
            return MonicaResponse.data(try await Self.presentTypes(sql, scope, [row])[0])
        }
    }

    /// Monica answers a new activity type (and category) with 200, not 201.
    private func saveType(_ scope: MonicaScope, id: Int64?) async throws -> Response {
        let input = try MonicaValidator.validate(try await scope.input(), Self.typeRules)
        let categoryID = input.int("activity_type_category_id") ?? 0
        let values: [String: DBValue] = [
            "activity_type_category_id": .int(categoryID), "name": .text(input.string("name")),
            "translation_key": .text(input.string("translation_key")),
        ]
        let saved: Int64 = try await scope.write { sql in
            try await ResourceSteps.existing(
                sql, scope, ActivityTypeTable.categories, id: categoryID, attribute: "activity type category id")
            if let id {
                try await ResourceSteps.existing(
                    sql, scope, ActivityTypeTable.table, id: id, attribute: "activity type id")
                try await MonicaQueries.update(
                    sql, ActivityTypeTable.table, account: scope.accountID, id: id, now: scope.now, values)
                return id
            }
            return try await MonicaQueries.insert(
                sql, ActivityTypeTable.table, account: scope.accountID, now: scope.now, values)
        }
        return try await showType(scope, id: saved)
    }

    private func saveCategory(_ scope: MonicaScope, id: Int64?) async throws -> Response {
        if let id {
            _ = try await scope.read { sql in
                try await ResourceSteps.existing(
                    sql, scope, ActivityTypeTable.categories, id: id, attribute: "activity type category id")
            }
        }
        let input = try MonicaValidator.validate(try await scope.input(), Self.categoryRules)
        let values: [String: DBValue] = [
            "name": .text(input.string("name")), "translation_key": .text(input.string("translation_key")),
        ]
        let saved: Int64 = try await scope.write { sql in
            if let id {
                try await MonicaQueries.update(
                    sql, ActivityTypeTable.categories, account: scope.accountID, id: id, now: scope.now, values)
                return id
            }
            return try await MonicaQueries.insert(
                sql, ActivityTypeTable.categories, account: scope.accountID, now: scope.now, values)
        }
        return try await ResourceSteps.show(scope, ActivityTypeTable.categories, id: saved, contactColumns: []) {
            row, _, scope in ActivityTypeTable.presentCategory(row, scope)
        }
    }
}
