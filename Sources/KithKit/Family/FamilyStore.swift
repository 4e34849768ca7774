import Foundation
import GRDB
import KithCore
import Observation

/// The Family app's shared reminders on a device (seed 003, docs/family.md), over the `LocalStore`
/// of a signed-in user. The family, its members and their roles come from the records the server
/// mirrors into the family's scope, so everything here works offline; joining, leaving and invites
/// are the server's (`KithClient.createFamily`, `joinFamily`, …) and reach this store by sync.
///
/// Every action is one local write queued for sync. KithCore's `FamilyRules` run inside it exactly
/// as on the server (decision 57): a child assigns reminders only to themselves, a completed reminder
/// is read-only, only the creator or the assignee completes, … A refusal throws `KithError.invalid`
/// with the rule's code, message and field, and writes nothing.
///
/// A SwiftUI view binds to `family`, `reminders`, `filter`, `upcomingNotices` and `pendingChanges`,
/// kept current after its writes and whenever the store changes otherwise (pulled changes,
/// acknowledged pushes). Snoozing and locations are in `FamilyStore+Notices.swift`.
@MainActor
@Observable
public final class FamilyStore {
    /// The user's family, nil while this device knows of none (not in one, or not synced since joining).
    public private(set) var family: LocalFamily?
    /// The family's reminders that `filter` lets through, due first.
    public private(set) var reminders: [FamilyReminder] = []
    /// Which reminders `reminders` holds.
    public var filter: ReminderFilter {
        didSet { refresher.refresh() }
    }
    /// The signed-in user's next notices, earliest first, at most `NoticeWindow.size`: what an app
    /// schedules as local notifications, so the phone rings offline. Read again with the rest of
    /// the state (after each write and sync); `refresh()` after a while drops those that passed.
    public private(set) var upcomingNotices: [PlannedNotice] = []
    /// Changes made on this device that wait to be synced.
    public private(set) var pendingChanges = 0
    /// Why the state could not be read last time (the device's storage failed), or nil.
    public private(set) var readError: KithError?

    public nonisolated let store: LocalStore
    @ObservationIgnored private let refresher = StateRefresher()

    static let reminderEntity = FamilyEntities.reminder.name
    static let itemEntity = FamilyEntities.checklistItem.name

    /// `store` must be a signed-in user's (`user:<id>`): the rules need to know who writes.
    public init(store: LocalStore, filter: ReminderFilter = ReminderFilter()) {
        self.store = store
        self.filter = filter
        refresher.follow(
            store.writer, region: LocalStore.region(of: FamilyRecords.entities),
            read: { [weak self] in self?.readState() })
    }

    /// Re-reads the observable state (needed only after another `LocalStore` or process wrote the file).
    public func refresh() { refresher.refresh() }

    /// The reminder with `id`, whatever the filter, or nil.
    public func reminder(_ id: UUID) throws -> FamilyReminder? {
        try store.read { db in try self.current(db)?.book.reminders.first { $0.id == id } }
    }

    // MARK: Reminders

    /// Adds a pending reminder for `assignee` (a member's user id; the signed-in user when nil)
    /// with a checklist of `items`. With a `schedule` it repeats, and is due at its first
    /// occurrence after now (`dueAt` is then ignored).
    @discardableResult
    public func addReminder(
        title: String, dueAt: Date? = nil, assignee: String? = nil, items: [String] = [],
        schedule: ReminderSchedule? = nil
    ) throws -> FamilyReminder {
        try writing { transaction, family, _ in
            let due: Date
            if let schedule {
                guard let first = try schedule.recurrence(in: family.timeZone).next(after: self.store.now()) else {
                    throw KithError.invalid(
                        APIErrorDetail(.validationFailed, "This repeat never happens.", field: "repeatDays"))
                }
                due = first
            } else {
                guard let dueAt else {
                    throw KithError.invalid(
                        APIErrorDetail(.validationFailed, "A reminder needs a due time.", field: "dueAt"))
                }
                due = dueAt
            }
            let id = try transaction.save(
                Self.reminderEntity,
                fields: ReminderFields.new(
                    title: title, dueAt: due, assignee: assignee ?? family.me, creator: family.me,
                    createdAt: self.store.now(), recurrence: try schedule?.recurrence(in: family.timeZone)),
                scope: family.scope)
            for (position, text) in items.enumerated() {
                try transaction.save(
                    Self.itemEntity, fields: ReminderFields.item(of: id, text: text, position: Int64(position)),
                    scope: family.scope)
            }
            return try self.written(id, transaction)
        }
    }

    /// Changes the given fields of a pending reminder (its creator, its assignee or a parent).
    @discardableResult
    public func edit(_ id: UUID, title: String? = nil, dueAt: Date? = nil, assignee: String? = nil) throws
        -> FamilyReminder
    {
        try writing { transaction, _, book in
            _ = try Self.find(id, in: book)
            let fields = ReminderFields.edit(title: title, dueAt: dueAt, assignee: assignee)
            if !fields.isEmpty { try transaction.save(Self.reminderEntity, id: id, fields: fields) }
            return try self.written(id, transaction)
        }
    }

    /// Marks the reminder done by the signed-in user (its creator or assignee). A repeating one
    /// stays pending with its next occurrence due and its checklist unticked; any other becomes
    /// completed and read-only.
    @discardableResult
    public func complete(_ id: UUID) throws -> FamilyReminder {
        try writing { transaction, family, book in
            let reminder = try Self.find(id, in: book)
            var recurrence: WeeklyRecurrence?
            if let record = try transaction.record(Self.reminderEntity, id: id),
                case .success(let found) = FamilyRules.recurrence(record.fields, timeZone: family.timeZone)
            {
                recurrence = found
            }
            switch ReminderFields.completion(of: reminder, recurrence: recurrence, by: family.me, at: self.store.now()) {
            case .failure(let problem):
                throw KithError.invalid(problem)
            case .success(let completion):
                try transaction.save(Self.reminderEntity, id: id, fields: completion.reminder)
                // The next occurrence starts with its checklist unticked.
                for item in completion.untick { try transaction.save(Self.itemEntity, id: item, fields: ["done": .bool(false)]) }
            }
            return try self.written(id, transaction)
        }
    }

    /// Takes back the signed-in user's own completion within `FamilyLimits.undoSeconds` of it, so
    /// the parents are never told: the reminder is pending again and due at the occurrence that was
    /// done (a repeat's moves back; the checklist stays as it is). Anyone else, or later, is
    /// refused (`not_allowed`, `undo_expired`). The server judges again by its own clock when the
    /// change arrives: an undo kept offline past the 30 s is refused there.
    @discardableResult
    public func undoCompletion(_ id: UUID) throws -> FamilyReminder {
        try writing { transaction, _, book in
            let fields = try ReminderFields.undoCompletion(of: try Self.find(id, in: book)).mapError(KithError.invalid).get()
            try transaction.save(Self.reminderEntity, id: id, fields: fields)
            return try self.written(id, transaction)
        }
    }

    /// Deletes the reminder with its checklist (its creator or a parent).
    public func delete(_ id: UUID) throws {
        try writing { transaction, _, book in
            _ = try Self.find(id, in: book)
            // FamilyRules cascade the deletion to the checklist in the same transaction.
            try transaction.delete(Self.reminderEntity, id: id)
        }
    }

    // MARK: Checklists

    /// Ticks or unticks one line of a pending reminder's checklist.
    @discardableResult
    public func setItem(_ item: UUID, of reminder: UUID, done: Bool) throws -> FamilyReminder {
        try writing { transaction, _, book in
            _ = try Self.find(item, of: try Self.find(reminder, in: book))
            try transaction.save(Self.itemEntity, id: item, fields: ["done": .bool(done)])
            return try self.written(reminder, transaction)
        }
    }

    /// Adds a line at the end of a pending reminder's checklist.
    @discardableResult
    public func addItem(_ text: String, to reminder: UUID) throws -> FamilyReminder {
        try writing { transaction, family, book in
            let found = try Self.find(reminder, in: book)
            let position = (found.checklist.map(\.position).max() ?? -1) + 1
            try transaction.save(
                Self.itemEntity, fields: ReminderFields.item(of: reminder, text: text, position: position),
                scope: family.scope)
            return try self.written(reminder, transaction)
        }
    }

    @discardableResult
    public func removeItem(_ item: UUID, from reminder: UUID) throws -> FamilyReminder {
        try writing { transaction, _, book in
            _ = try Self.find(item, of: try Self.find(reminder, in: book))
            try transaction.delete(Self.itemEntity, id: item)
            return try self.written(reminder, transaction)
        }
    }

    // MARK: Plumbing

    private nonisolated func current(_ db: Database) throws -> (family: LocalFamily, book: FamilyBook)? {
        guard let me = store.actor else { return nil }
        return try FamilyRecords.read(member: me, db)
    }

    /// One transaction with the user's family as it stands in it; refused when there is none.
    func writing<Result>(_ body: (LocalTransaction, LocalFamily, FamilyBook) throws -> Result) throws -> Result
    {
        let result = try store.write { transaction in
            guard let found = try current(transaction.database) else {
                throw KithError.invalid(
                    APIErrorDetail(
                        .notInFamily, "You are not in a family on this device yet: create or join one, then sync."))
            }
            return try body(transaction, found.family, found.book)
        }
        refresher.refresh()
        return result
    }

    /// The reminder as the transaction left it.
    func written(_ id: UUID, _ transaction: LocalTransaction) throws -> FamilyReminder {
        guard let found = try current(transaction.database)?.book.reminders.first(where: { $0.id == id }) else {
            throw KithError.storage("reminder \(id.lowercased) was written but can't be read back")
        }
        return found
    }

    static func find(_ id: UUID, in book: FamilyBook) throws -> FamilyReminder {
        guard let found = book.reminders.first(where: { $0.id == id }) else {
            throw KithError.invalid(APIErrorDetail(.notFound, "No reminder with id \(id.lowercased) in your family."))
        }
        return found
    }

    private static func find(_ item: UUID, of reminder: FamilyReminder) throws -> ChecklistItem {
        guard let found = reminder.checklist.first(where: { $0.id == item }) else {
            throw KithError.invalid(
                APIErrorDetail(.notFound, "This reminder's checklist has no item \(item.lowercased)."))
        }
        return found
    }

    private func readState() {
        let read: (found: (family: LocalFamily, book: FamilyBook)?, pending: Int)
        do {
            read = try store.read { db in (try self.current(db), try Outbox.count(db)) }
        } catch {
            readError = error as? KithError ?? .storage("\(error)")
            return
        }
        readError = nil
        let family = read.found?.family
        let reminders = read.found.map { $0.book.reminders(filter, viewer: $0.family.me) } ?? []
        let notices = read.found.map { NoticeWindow.upcoming(in: $0.book, for: $0.family.me, after: store.now()) } ?? []
        if self.family != family { self.family = family }
        if self.reminders != reminders { self.reminders = reminders }
        if upcomingNotices != notices { upcomingNotices = notices }
        if pendingChanges != read.pending { pendingChanges = read.pending }
    }
}
