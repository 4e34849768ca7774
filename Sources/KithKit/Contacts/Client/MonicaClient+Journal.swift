import Foundation

/// A contact's notes, tasks, activities, gifts and reminders.
extension MonicaClient {
    public nonisolated var notes: MonicaContactResource<MonicaNote, MonicaNoteInput> { resource("notes") }
    public nonisolated var tasks: MonicaContactResource<MonicaTask, MonicaTaskInput> { resource("tasks") }
    public nonisolated var gifts: MonicaContactResource<MonicaGift, MonicaGiftInput> { resource("gifts") }
    public nonisolated var reminders: MonicaContactResource<MonicaReminder, MonicaReminderInput> { resource("reminders") }

    private nonisolated func resource<Item, Input>(_ path: String) -> MonicaContactResource<Item, Input> {
        MonicaContactResource(client: self, path: path)
    }

    /// A page of a contact's activities, in Monica's order (pages of 10 for "load more").
    public func activities(of contactID: Int, page: Int = 1, limit: Int = 10) async throws -> MonicaPage<MonicaActivity>
    {
        try await self.page("contacts/\(contactID)/activities", page: page, limit: limit)
    }

    public func activityTypes() async throws -> [MonicaActivityType] { try await pages("activitytypes").allItems() }

    public func activityTypeCategories() async throws -> [MonicaActivityTypeCategory] {
        try await pages("activitytypecategories").allItems()
    }
}
