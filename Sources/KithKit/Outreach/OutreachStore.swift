import Foundation
import GRDB
import KithCore
import Observation

/// The Outreach app's data on a device (docs/outreach.md "Outreach"), over a `LocalStore`:
/// every change is a local write queued for sync, so everything works offline. The rules that span
/// records (unique year names, never deleting the last year, a year's contacts going with it) are
/// checked here, inside the same transaction as the write.
///
/// A SwiftUI view binds to it directly: `book`, `year`, `people`, `progress` and `pendingChanges`
/// are observable and kept current after each of its writes and whenever the store changes
/// otherwise (changes the sync engine pulls, pushes the server acknowledged).
@MainActor
@Observable
public final class OutreachStore {
    /// Every year and person of the account, as the screens show them.
    public private(set) var book = OutreachBook(years: [], contacts: [], lastViewedYearId: nil)
    /// The year to show: the one last viewed (on any device), else the current calendar year's,
    /// else the newest; nil while there is no year at all (`selectedYear()` creates one).
    public private(set) var year: OutreachYear?
    /// The people of `year`, by last name then first name.
    public private(set) var people: [OutreachContact] = []
    /// How many of `year`'s people have been delivered.
    public private(set) var progress = OutreachProgress(delivered: 0, total: 0)
    /// Changes made on this device that wait to be synced.
    public private(set) var pendingChanges = 0
    /// Why the state could not be read last time (the device's storage failed), or nil.
    public private(set) var readError: KithError?

    /// Whether changes made on this device wait to be synced.
    public var hasPendingChanges: Bool { pendingChanges > 0 }

    public nonisolated let store: LocalStore
    @ObservationIgnored let now: @Sendable () -> Date
    @ObservationIgnored private let refresher = StateRefresher()

    static let year = OutreachEntities.year.name
    static let contact = OutreachEntities.contact.name
    static let preferences = OutreachEntities.preferences.name

    public init(store: LocalStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.now = now
        refresher.follow(
            store.writer, region: LocalStore.region(of: [Self.year, Self.contact, Self.preferences]),
            read: { [weak self] in self?.readState() })
    }

    /// Re-reads the observable state. It is kept current by itself (writes through `store`, this
    /// store's or the sync engine's); call this only after another `LocalStore` or process changed
    /// the same file.
    public func refresh() { refresher.refresh() }

    // MARK: Years

    /// Every year, newest name first.
    public func years() throws -> [OutreachYear] {
        try store.records(Self.year).compactMap(OutreachYear.init).sorted(by: OutreachBook.newestFirst)
    }

    /// Adds a year with an empty list. Names are trimmed and unique (ignoring case).
    @discardableResult
    public func addYear(_ name: String) throws -> OutreachYear {
        try apply(OutreachOperations.addYear(name))
    }

    public func renameYear(_ id: UUID, to name: String) throws {
        _ = try apply(OutreachOperations.renameYear(id, to: name))
    }

    /// Deletes a year and all its people. The last year can't be deleted. If it was the selected
    /// year, another one is selected.
    public func deleteYear(_ id: UUID) throws {
        try apply(OutreachOperations.deleteYear(id))
    }

    /// The year to show: the one last viewed (on any device: it syncs), else the current calendar
    /// year's, else the newest. With no year at all, the current year is created.
    public func selectedYear() throws -> OutreachYear {
        try apply(OutreachOperations.openYear())
    }

    /// Remembers the year being viewed, for the next launch and the user's other devices.
    public func selectYear(_ id: UUID) throws {
        try apply(OutreachOperations.selectYear(id))
    }

    /// A new year with the people of `source` (names, enterprise and comments), none delivered.
    @discardableResult
    public func copyYear(_ source: UUID, to name: String) throws -> OutreachYear {
        try apply(OutreachOperations.addYear(name, copying: source))
    }

    // MARK: People

    /// The people of a year, by last name then first name, ignoring case and accents.
    public func contacts(in year: UUID) throws -> [OutreachContact] {
        OutreachBook.sortedByName(
            try store.records(Self.contact).compactMap(OutreachContact.init).filter { $0.yearId == year })
    }

    /// The people of a year a search shows (`OutreachFilter`: name or enterprise, delivered or
    /// not), by last name then first name.
    public func contacts(in year: UUID, matching filter: OutreachFilter) throws -> [OutreachContact] {
        filter.shown(try contacts(in: year))
    }

    public func contact(_ id: UUID) throws -> OutreachContact? {
        try store.record(Self.contact, id: id).flatMap(OutreachContact.init)
    }

    @discardableResult
    public func addContact(
        to year: UUID, firstName: String, lastName: String, enterpriseName: String, comments: String = ""
    ) throws -> OutreachContact {
        try apply(
            OutreachOperations.addPerson(
                to: year, first: firstName, last: lastName, enterprise: enterpriseName, comments: comments))
    }

    /// Changes the given fields of a person; nil leaves a field as it is.
    @discardableResult
    public func editContact(
        _ id: UUID, firstName: String? = nil, lastName: String? = nil, enterpriseName: String? = nil,
        comments: String? = nil
    ) throws -> OutreachContact {
        try writing { transaction in
            _ = try transaction.apply(
                OutreachOperations.editPerson(
                    id,
                    OutreachFields.edits(
                        first: firstName, last: lastName, enterprise: enterpriseName, comments: comments)))
            return try Self.contact(id, transaction)
        }
    }

    /// Marks a person delivered now (the time of the tap, on this device), or not delivered.
    @discardableResult
    public func setDelivered(_ id: UUID, _ delivered: Bool) throws -> OutreachContact {
        try apply(OutreachOperations.setDelivered(id, delivered))
    }

    public func deleteContact(_ id: UUID) throws {
        _ = try apply(OutreachOperations.deletePerson(id))
    }

    /// Marks many people delivered now, or not delivered, in one change (people already so keep
    /// their time): what `undo` takes to put them back.
    @discardableResult
    public func setDelivered(_ ids: [UUID], _ delivered: Bool) throws -> OutreachUndo {
        .deliveries(try apply(OutreachOperations.setDelivered(ids, delivered)))
    }

    /// Deletes many people in one change: what `undo` takes to bring them back.
    @discardableResult
    public func deleteContacts(_ ids: [UUID]) throws -> OutreachUndo {
        .deletion(try apply(OutreachOperations.deletePeople(ids)))
    }

    /// Takes back a change of many people: how many were put back.
    @discardableResult
    public func undo(_ undo: OutreachUndo) throws -> Int {
        try apply(OutreachOperations.undo(undo))
    }

    public func progress(of year: UUID) throws -> OutreachProgress {
        OutreachProgress(of: try contacts(in: year))
    }

    // MARK: Plumbing

    /// One of the app's operations in one transaction of the store, then the state re-read.
    @discardableResult
    func apply<Output>(_ operation: RecordOperation<Output>) throws -> Output {
        try writing { transaction in try transaction.apply(operation) }
    }

    /// One transaction of the store, then the state re-read (`store.write` and an observable refresh).
    func writing<Result>(_ body: (LocalTransaction) throws -> Result) throws -> Result {
        let result = try store.write(body)
        refresher.refresh()
        return result
    }

    /// Reads the records and the outbox in one transaction and sets what changed.
    private func readState() {
        let read: (book: OutreachBook, pending: Int)
        do {
            read = try store.read { db in
                let book = OutreachBook(
                    years: try store.records(Self.year, db).compactMap(OutreachYear.init),
                    contacts: try store.records(Self.contact, db).compactMap(OutreachContact.init),
                    lastViewedYearId: try store.record(Self.preferences, id: preferencesID, db)?
                        .string("lastViewedYearId").flatMap(UUID.init(text:)))
                return (book, try Outbox.count(db))
            }
        } catch {
            readError = error as? KithError ?? .storage("\(error)")
            return
        }
        readError = nil
        let year: OutreachYear? =
            switch read.book.selection(now: now()) {
            case .year(let year): year
            case .create: nil
            }
        let people = year.map { read.book.people(in: $0.id) } ?? []
        let progress = OutreachProgress(of: people)
        if book != read.book { book = read.book }
        if self.year != year { self.year = year }
        if self.people != people { self.people = people }
        if self.progress != progress { self.progress = progress }
        if pendingChanges != read.pending { pendingChanges = read.pending }
    }

    private static func contact(_ id: UUID, _ transaction: LocalTransaction) throws -> OutreachContact {
        guard let contact = try transaction.record(Self.contact, id: id).flatMap(OutreachContact.init) else {
            throw KithError.invalid(OperationRefusal.notFound("That person"))
        }
        return contact
    }

    var preferencesID: UUID { OutreachFields.preferencesID(scope: store.userScope) }
}
