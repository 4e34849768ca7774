import Foundation

/// A contact's notes, tasks, activities, gifts and reminders.
extension MonicaClient {
    public func notes(of contactID: Int, page: Int = 1, limit: Int = 100) async throws -> MonicaPage<MonicaNote> {
        try await self.page("contacts/\(contactID)/notes", page: page, limit: limit)
    }

    public func createNote(_ input: MonicaNoteInput) async throws -> MonicaNote {
        try await object("POST", "notes", body: input)
    }

    public func updateNote(_ id: Int, _ input: MonicaNoteInput) async throws -> MonicaNote {
        try await object("PUT", "notes/\(id)", body: input)
    }

    public func deleteNote(_ id: Int) async throws { try await delete("notes/\(id)") }

    public func tasks(of contactID: Int, page: Int = 1, limit: Int = 100) async throws -> MonicaPage<MonicaTask> {
        try await self.page("contacts/\(contactID)/tasks", page: page, limit: limit)
    }

    public func createTask(_ input: MonicaTaskInput) async throws -> MonicaTask {
        try await object("POST", "tasks", body: input)
    }

    public func updateTask(_ id: Int, _ input: MonicaTaskInput) async throws -> MonicaTask {
        try await object("PUT", "tasks/\(id)", body: input)
    }

    public func deleteTask(_ id: Int) async throws { try await delete("tasks/\(id)") }

    /// A page of a contact's activities, in Monica's order (pages of 10 for "load more", seed 004 story 5).
    public func activities(of contactID: Int, page: Int = 1, limit: Int = 10) async throws -> MonicaPage<MonicaActivity>
    {
        try await self.page("contacts/\(contactID)/activities", page: page, limit: limit)
    }

    public func activityTypes() async throws -> [MonicaActivityType] { try await pages("activitytypes").allItems() }

    public func activityTypeCategories() async throws -> [MonicaActivityTypeCategory] {
        try await pages("activitytypecategories").allItems()
    }

    public func gifts(of contactID: Int, page: Int = 1, limit: Int = 100) async throws -> MonicaPage<MonicaGift> {
        try await self.page("contacts/\(contactID)/gifts", page: page, limit: limit)
    }

    public func createGift(_ input: MonicaGiftInput) async throws -> MonicaGift {
        try await object("POST", "gifts", body: input)
    }

    public func updateGift(_ id: Int, _ input: MonicaGiftInput) async throws -> MonicaGift {
        try await object("PUT", "gifts/\(id)", body: input)
    }

    public func deleteGift(_ id: Int) async throws { try await delete("gifts/\(id)") }

    public func reminders(of contactID: Int, page: Int = 1, limit: Int = 100) async throws -> MonicaPage<MonicaReminder>
    {
        try await self.page("contacts/\(contactID)/reminders", page: page, limit: limit)
    }

    public func createReminder(_ input: MonicaReminderInput) async throws -> MonicaReminder {
        try await object("POST", "reminders", body: input)
    }

    public func updateReminder(_ id: Int, _ input: MonicaReminderInput) async throws -> MonicaReminder {
        try await object("PUT", "reminders/\(id)", body: input)
    }

    public func deleteReminder(_ id: Int) async throws { try await delete("reminders/\(id)") }
}
