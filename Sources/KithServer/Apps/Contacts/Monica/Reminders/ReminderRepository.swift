import Foundation

/// A reminder's fields as a write gives them.
struct ReminderInput: Sendable {
    let contactID: Int64
    let title: String
    let description: String?
    let initialDate: String
    let frequencyType: String
    let frequencyNumber: Int64?
    let delible: Bool
}

struct ReminderRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource

    var owned: ContactOwnedRepository<ReminderRecord> { ContactOwnedRepository(database: database, ids: ids) }

    /// Creates a reminder (nil `id`) or changes reminder `id` (if it is still a version `ifMatch` names).
    func save(account: Int64, id: Int64?, ifMatch: IfMatch?, _ input: ReminderInput, now: Int64) async throws
        -> WithContacts<ReminderRecord>
    {
        try await owned.save(account: account, id: id, ifMatch: ifMatch, now: now) { storage, reminders in
            if let id { _ = try await reminders.existing(id, attribute: "reminder id") }
            _ = try await storage.contacts.existing(input.contactID, attribute: "contact id")
            return [
                "contact_id": .int(input.contactID), "title": .text(input.title), "description": .text(input.description),
                "initial_date": .text(input.initialDate), "frequency_type": .text(input.frequencyType),
                "frequency_number": .int(input.frequencyNumber), "delible": .bool(input.delible),
            ]
        }
    }

    /// The account's reminders falling between `first` and `last`, each with its day, by day.
    func upcoming(account: Int64, from first: MonicaDate, through last: MonicaDate) async throws
        -> WithContacts<[(day: MonicaDate, reminder: ReminderRecord)]>
    {
        try await reading(account) { storage in
            let due = try await storage.table(ReminderRecord.self).all().compactMap { reminder in
                ReminderRecurrence.nextDate(reminder, from: first).flatMap { $0 <= last ? ($0, reminder) : nil }
            }.sorted { ($0.0, $0.1.id) < ($1.0, $1.1.id) }
            let contacts = try await storage.details.summaries(due.map(\.1.contactID))
            return WithContacts(value: due.map { (day: $0.0, reminder: $0.1) }, contacts: contacts)
        }
    }
}
