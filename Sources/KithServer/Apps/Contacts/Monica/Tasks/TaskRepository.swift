import Foundation

/// A task's fields as a write gives them.
struct TaskInput: Sendable {
    let contactID: Int64?
    let title: String
    let description: String?
    /// Only an update says whether the task is done (Monica's create ignores `completed`).
    let completed: Bool?
}

struct TaskRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource

    var owned: ContactOwnedRepository<TaskRecord> { ContactOwnedRepository(database: database, ids: ids) }

    /// Creates a task (nil `id`) or changes task `id` (if it is still a version `ifMatch` names).
    func save(account: Int64, id: Int64?, ifMatch: IfMatch?, _ input: TaskInput, now: Int64) async throws
        -> WithContacts<TaskRecord>
    {
        try await owned.save(account: account, id: id, ifMatch: ifMatch, now: now) { storage, tasks in
            if let id { _ = try await tasks.existing(id, attribute: "task id") }
            if let contactID = input.contactID { _ = try await storage.contacts.require(contactID) }
            var values: MonicaColumns = [
                "title": .text(input.title), "description": .text(input.description), "contact_id": .int(input.contactID),
            ]
            if let completed = input.completed {
                values["completed"] = .bool(completed)
                values["completed_at"] = completed ? .int(now) : .null
            }
            return values
        }
    }
}
