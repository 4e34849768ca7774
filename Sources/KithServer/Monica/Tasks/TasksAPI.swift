import Foundation
import Hummingbird
import KithCore
import SQLKit

/// `monica_tasks`: to-dos, about a contact or not.
enum TaskTable {
    static let table = MonicaTable(
        name: "monica_tasks",
        columns: [
            .init("uuid", .text), .init("contact_id", .int), .init("title", .text), .init("description", .text),
            .init("completed", .bool), .init("completed_at", .int),
        ])

    static let presenter: RowPresenter = { row, shorts, scope in
        .object(
            JSONObject(
                [
                    ("id", .int(row.id)), ("uuid", .nullable(row.text("uuid"))), ("object", "task"),
                    ("title", .nullable(row.text("title"))), ("description", .nullable(row.text("description"))),
                    ("completed", .bool(row.bool("completed"))),
                    ("completed_at", .nullable(MonicaTimestamp.format(millis: row.int("completed_at")))),
                ] + row.stamps(scope, contact: row.int("contact_id").flatMap { shorts[$0] })))
    }
}

/// `/api/tasks` and `/api/contacts/{id}/tasks`.
struct TasksAPI {
    static let createRules = [
        FieldRules("contact_id", .nullable, .integer), FieldRules("title", .required, .string, .max(255)),
        FieldRules("description", .nullable, .string, .max(1_000_000)),
    ]
    static let updateRules = createRules + [FieldRules("completed", .required, .boolean)]
    static let sortable: Set<String> = ["created_at", "updated_at", "completed_at"]

    func addRoutes(to routes: MonicaRoutes) {
        routes.contactChild(
            "tasks", TaskTable.table, sortable: Self.sortable, present: TaskTable.presenter, save: save
        ) { scope in try await ResourceSteps.destroy(scope, TaskTable.table, answerText: true) }
    }

    /// Monica answers a new task with 200, not 201 (its service fetches the task again).
    private func save(_ scope: MonicaScope, id: Int64?) async throws -> Response {
        let input = try MonicaValidator.validate(
            try await scope.input(), id == nil ? Self.createRules : Self.updateRules)
        let contactID = input.int("contact_id")
        let saved: Int64 = try await scope.write { sql in
            if let id {
                try await ResourceSteps.existing(sql, scope, TaskTable.table, id: id, attribute: "task id")
            }
            if let contactID { try await ResourceSteps.ownedContact(sql, scope, contactID) }
            var values: [String: DBValue] = [
                "title": .text(input.string("title")), "description": .text(input.string("description")),
                "contact_id": .int(contactID),
            ]
            // Only an update says whether the task is done (Monica's create ignores `completed`).
            if id != nil {
                let completed = input.bool("completed") ?? false
                values["completed"] = .bool(completed)
                values["completed_at"] = completed ? .int(scope.now) : .null
            }
            return try await MonicaQueries.save(
                sql, TaskTable.table, account: scope.accountID, id: id, now: scope.now, values)
        }
        return try await ResourceSteps.show(scope, TaskTable.table, id: saved, TaskTable.presenter)
    }
}
