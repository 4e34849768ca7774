import Foundation
import SQLKit

/// A life event's fields as a write gives them. An update changes the type, the day, the name
/// and the note (as Monica's); the contact, the reminder choice and the unknown parts come with
/// a create only.
struct LifeEventInput: Sendable {
    let contactID: Int64
    let typeID: Int64
    /// `Y-m-d`.
    let happenedAt: String
    let name: String?
    let note: String?
    let hasReminder: Bool
    let monthUnknown: Bool
    let dayUnknown: Bool
}

/// Life events with the types (and categories) they show.
struct LifeEventsView: Sendable {
    let events: WithContacts<RecordPage<LifeEventRecord>>
    let kinds: [Int64: LifeEventKind]
}

struct LifeEventRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource

    var owned: ContactOwnedRepository<LifeEventRecord> { ContactOwnedRepository(database: database, ids: ids) }

    /// A page of the account's life events, or of one of its contacts'.
    func page(account: Int64, ofContact contactID: Int64?, _ page: PageRequest) async throws -> LifeEventsView {
        try await reading(account) { storage in
            if let contactID { _ = try await storage.contacts.require(contactID) }
            let found = try await storage.table(LifeEventRecord.self).pageNamingContacts(
                page, filter: contactID.map { equals("contact_id", $0) })
            return LifeEventsView(events: found, kinds: try await Self.kinds(of: found.value.records, storage))
        }
    }

    func find(account: Int64, id: Int64) async throws -> LifeEventsView {
        try await reading(account) { storage in try await Self.one(id, storage) }
    }

    /// Creates a life event (nil `id`; with a yearly reminder when asked) or changes life event
    /// `id` (if it is still a version `ifMatch` names; its reminder follows the new day and type).
    /// The type must be the account's (else 404).
    func save(account: Int64, id: Int64?, ifMatch: IfMatch?, _ input: LifeEventInput, now: Int64) async throws
        -> LifeEventsView
    {
        try await writing(account) { [ids] storage in
            if let id { try await storage.check(ifMatch, LifeEventRecord.self, id: id) }
            let events = storage.table(LifeEventRecord.self)
            let type = try await storage.table(LifeEventTypeRecord.self).require(input.typeID)
            var values: MonicaColumns = [
                "life_event_type_id": .int(type.id), "happened_at": .text(input.happenedAt),
                "name": .text(input.name), "note": .text(input.note),
            ]
            let saved: LifeEventRecord
            if let id {
                let current = try await events.require(id)
                saved = try await events.update(id, values, now: now)
                if let reminderID = current.reminderID {
                    try await storage.table(ReminderRecord.self).update(
                        reminderID, ["initial_date": .text(input.happenedAt), "title": .text(type.name)], now: now)
                }
            } else {
                _ = try await storage.contacts.require(input.contactID)
                values["contact_id"] = .int(input.contactID)
                values["happened_at_month_unknown"] = .bool(input.monthUnknown)
                values["happened_at_day_unknown"] = .bool(input.dayUnknown)
                if input.hasReminder {
                    let reminder = try await storage.table(ReminderRecord.self).save(
                        nil,
                        [
                            "contact_id": .int(input.contactID), "title": .text(type.name ?? "Life event"),
                            "initial_date": .text(input.happenedAt), "frequency_type": .text("year"),
                            "frequency_number": .int(1),
                        ], now: now, ids: ids)
                    values["reminder_id"] = .int(reminder.id)
                }
                saved = try await events.save(nil, values, now: now, ids: ids)
            }
            return try await Self.one(saved.id, storage)
        }
    }

    /// Deletes life event `id` and the reminder it made (if it is still a version `ifMatch` names).
    func delete(account: Int64, id: Int64, ifMatch: IfMatch?) async throws {
        try await owned.delete(account: account, id: id, ifMatch: ifMatch) { storage, event in
            if let reminderID = event.reminderID { try await storage.table(ReminderRecord.self).delete(reminderID) }
        }
    }

    /// Every life event type of the account with its category, in category then type order.
    /// An account made before life events were kept gets Monica's defaults first.
    func kinds(account: Int64) async throws -> [LifeEventKind] {
        let found = try await reading(account) { storage in try await Self.allKinds(storage) }
        if !found.isEmpty { return found }
        return try await writing(account) { storage in
            if try await Self.allKinds(storage).isEmpty { try await LifeEventDefaults.seed(storage) }
            return try await Self.allKinds(storage)
        }
    }

    func categories(account: Int64) async throws -> [LifeEventCategoryRecord] {
        var seen = Set<Int64>()
        return try await kinds(account: account).compactMap(\.category).filter { seen.insert($0.id).inserted }
    }

    private static func one(_ id: Int64, _ storage: MonicaStorage) async throws -> LifeEventsView {
        let event = try await storage.table(LifeEventRecord.self).requireNamingContacts(id)
        return LifeEventsView(
            events: WithContacts(value: RecordPage(records: [event.value], total: 1), contacts: event.contacts),
            kinds: try await kinds(of: [event.value], storage))
    }

    private static func kinds(of events: [LifeEventRecord], _ storage: MonicaStorage) async throws
        -> [Int64: LifeEventKind]
    {
        let types = try await storage.table(LifeEventTypeRecord.self).all(
            where: "id", in: events.map(\.lifeEventTypeID))
        let categories = try await storage.table(LifeEventCategoryRecord.self).byID(types.map(\.lifeEventCategoryID))
        return Dictionary(
            types.map { ($0.id, LifeEventKind(type: $0, category: categories[$0.lifeEventCategoryID])) },
            uniquingKeysWith: { first, _ in first })
    }

    private static func allKinds(_ storage: MonicaStorage) async throws -> [LifeEventKind] {
        let categories = try await storage.table(LifeEventCategoryRecord.self).all()
        let byID = Dictionary(categories.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let order = Dictionary(categories.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        return try await storage.table(LifeEventTypeRecord.self).all()
            .sorted { (order[$0.lifeEventCategoryID] ?? 0, $0.id) < (order[$1.lifeEventCategoryID] ?? 0, $1.id) }
            .map { LifeEventKind(type: $0, category: byID[$0.lifeEventCategoryID]) }
    }
}
