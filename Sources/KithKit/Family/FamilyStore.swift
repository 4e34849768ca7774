import Foundation
import GRDB
import KithCore
import Observation

/// The Family app's shared reminders on a device (docs/family.md), over the `LocalStore`
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

    /// What the signed-in user may do with reminder `id` now (complete, edit, delete, tick, snooze,
    /// set its place, undo), each judged by `FamilyRules` over this device's records exactly as the
    /// web pages offer it (`ReminderPermissions`): a view shows only the buttons that would be
    /// accepted. Nil when the family has no such reminder.
    public func permissions(for id: UUID) throws -> ReminderPermissions? {
        guard let me = store.actor else { return nil }
        let now = store.now()
        return try store.read { db -> ReminderPermissions? in
            guard let found = try FamilyRecords.readWithRecords(member: me, db),
                let reminder = found.book.reminders.first(where: { $0.id == id })
            else { return nil }
            return ReminderPermissions(
                reminder, records: found.records, scope: found.family.scope, actor: me, now: now)
        }
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
            let input = FamilyReminderInput(
                title: title, dueAt: dueAt, assigneeId: assignee ?? family.me,
                recurrence: try schedule?.recurrence(in: family.timeZone),
                checklist: items.map { FamilyReminderInput.Line(text: $0) })
            return try transaction.apply(ReminderOperations.create(input, in: family.scope))
        }
    }

    /// Changes the given fields of a pending reminder (its creator, its assignee or a parent).
    @discardableResult
    public func edit(_ id: UUID, title: String? = nil, dueAt: Date? = nil, assignee: String? = nil) throws
        -> FamilyReminder
    {
        try applying { ReminderOperations.change(id, title: title, dueAt: dueAt, assignee: assignee, in: $0) }
    }

    /// Makes a pending reminder repeat by `schedule` in the family's time zone (nil: it stops
    /// repeating and stays due at its current due time). A new repeat makes its first occurrence
    /// after now due. Its creator, its assignee or a parent (a child not on a parent's reminder).
    @discardableResult
    public func setSchedule(_ id: UUID, _ schedule: ReminderSchedule?) throws -> FamilyReminder {
        try writing { transaction, family, _ in
            try transaction.apply(
                ReminderOperations.setRepeat(id, try schedule?.recurrence(in: family.timeZone), in: family.scope))
        }
    }

    /// Marks the reminder done by the signed-in user (its creator or assignee). A repeating one
    /// stays pending with its next occurrence due and its checklist unticked; any other becomes
    /// completed and read-only. With checklist items not ticked (`FamilyReminder.unticked`) it asks
    /// first: refused with `unticked_items` ("2 items are not ticked: Milk, Bread. Complete
    /// anyway?") unless `evenIfUnticked`; what was left unticked is then told to the parents.
    @discardableResult
    public func complete(_ id: UUID, evenIfUnticked: Bool = false) throws -> FamilyReminder {
        try applying { ReminderOperations.complete(id, evenIfUnticked: evenIfUnticked, in: $0) }
    }

    /// Takes back the signed-in user's own completion within `FamilyLimits.undoSeconds` of it, so
    /// the parents are never told: the reminder is pending again and due at the occurrence that was
    /// done (a repeat's moves back; the checklist stays as it is). Anyone else, or later, is
    /// refused (`not_allowed`, `undo_expired`). The server judges again by its own clock when the
    /// change arrives: an undo kept offline past the 30 s is refused there.
    @discardableResult
    public func undoCompletion(_ id: UUID) throws -> FamilyReminder {
        try applying { ReminderOperations.undoCompletion(id, in: $0) }
    }

    /// Deletes the reminder with its checklist (its creator or a parent).
    public func delete(_ id: UUID) throws {
        try applying { ReminderOperations.delete(id, in: $0) }
    }

    // MARK: Checklists

    /// Ticks or unticks one line of a pending reminder's checklist.
    @discardableResult
    public func setItem(_ item: UUID, of reminder: UUID, done: Bool) throws -> FamilyReminder {
        try applying { ReminderOperations.setItem(item, of: reminder, done: done, in: $0) }
    }

    /// Adds a line at the end of a pending reminder's checklist.
    @discardableResult
    public func addItem(_ text: String, to reminder: UUID) throws -> FamilyReminder {
        try applying { ReminderOperations.addItem(text, to: reminder, in: $0) }
    }

    @discardableResult
    public func removeItem(_ item: UUID, from reminder: UUID) throws -> FamilyReminder {
        try applying { ReminderOperations.removeItem(item, from: reminder, in: $0) }
    }

    // MARK: Plumbing

    private nonisolated func current(_ db: Database) throws -> (family: LocalFamily, book: FamilyBook)? {
        guard let me = store.actor else { return nil }
        return try FamilyRecords.read(member: me, db)
    }

    /// One transaction with the user's family as it stands in it; refused when there is none.
    func writing<Result>(_ body: (LocalTransaction, LocalFamily, FamilyBook) throws -> Result) throws -> Result {
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

    /// One of the app's operations, made for the family's scope, in one transaction.
    @discardableResult
    func applying<Output>(_ operation: (String) -> RecordOperation<Output>) throws -> Output {
        try writing { transaction, family, _ in try transaction.apply(operation(family.scope)) }
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
