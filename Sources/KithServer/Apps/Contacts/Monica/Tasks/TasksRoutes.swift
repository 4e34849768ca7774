import Foundation
import Hummingbird
import KithCore

/// `/api/tasks` and `/api/contacts/{id}/tasks`.
struct TasksRoutes {
    static let createRules = [
        FieldRules("contact_id", .nullable, .integer), FieldRules("title", .required, .string, .max(255)),
        FieldRules("description", .nullable, .string, .max(1_000_000)),
    ]
    static let updateRules = createRules + [FieldRules("completed", .required, .boolean)]
    static let sortable: Set<String> = ["created_at", "updated_at", "completed_at"]

    let repository: TaskRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.contactOwned(
            "tasks", repository.owned, sortable: Self.sortable, answerTextOnDelete: true, present: Self.present
        ) { call, id in try await save(call, id: id) }
    }

    static let present: OwnedPresenter<TaskRecord> = { task, contact, presentation in
        TaskPresenter.present(task, contact: contact(task.contactID), presentation)
    }

    /// Monica answers a new task with 200, not 201 (its service fetches the task again).
    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        let valid = try MonicaValidator.validate(try await call.input(), id == nil ? Self.createRules : Self.updateRules)
        let input = TaskInput(
            contactID: valid.int("contact_id"), title: valid.string("title") ?? "", description: valid.string("description"),
            completed: id == nil ? nil : (valid.bool("completed") ?? false))
        let saved = try await repository.save(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), input, now: call.now)
        return owned(saved, call, Self.present)
    }
}
