import Foundation
import KithCore

/// The Outreach app (seed 000) as the web pages use it: the signed-in user's outreach records read
/// from sync storage, and every change written as a mutation of one more device of theirs through
/// `SyncWriter`, so the same rules apply as on push and the user's devices are nudged.
struct OutreachService: Sendable {
    let repository: SyncRepository
    let operations: OperationWriter
    let clock: Clock

    static let entities = Set(OutreachEntities.all.map(\.name))

    /// The user's outreach data, ordered as every screen shows it.
    func book(for user: AuthenticatedUser) async throws -> OutreachBook {
        OutreachBook(records: try await repository.liveFields(Self.entities, in: user.scope))
    }

    /// The year to show: `requested` when it exists, else the selection rule (the year last chosen on
    /// any device, …); with no year at all, the current year is created. Showing remembers nothing:
    /// choosing does (`select`).
    func open(for user: AuthenticatedUser, requested: UUID?) async throws -> (book: OutreachBook, year: OutreachYear) {
        let book = try await book(for: user)
        if let requested, let year = book.year(requested) { return (book, year) }
        if case .year(let year) = book.selection(now: clock.now()) { return (book, year) }
        let year = try await apply(OutreachOperations.openYear(), for: user)
        return (try await self.book(for: user), year)
    }

    /// Remembers the chosen year, for the next visit and the user's other devices.
    func select(_ year: UUID, for user: AuthenticatedUser) async throws {
        try await apply(OutreachOperations.selectYear(year), for: user)
    }

    /// A new year, empty or with the people of `source` (names, enterprise, comments; none
    /// delivered), shown from now on.
    @discardableResult
    func addYear(_ name: String, copying source: UUID?, for user: AuthenticatedUser) async throws -> OutreachYear {
        try await apply(OutreachOperations.addYear(name, copying: source, show: true), for: user)
    }

    func renameYear(_ id: UUID, to name: String, for user: AuthenticatedUser) async throws {
        try await apply(OutreachOperations.renameYear(id, to: name), for: user)
    }

    /// Deletes a year and (on the server, with the same stamp) its people. The last year stays.
    func deleteYear(_ id: UUID, for user: AuthenticatedUser) async throws {
        try await apply(OutreachOperations.deleteYear(id), for: user)
    }

    @discardableResult
    func addPerson(
        to year: UUID, first: String, last: String, enterprise: String, comments: String, for user: AuthenticatedUser
    ) async throws -> UUID {
        try await apply(
            OutreachOperations.addPerson(to: year, first: first, last: last, enterprise: enterprise, comments: comments),
            for: user
        ).id
    }

    /// One person of the user's; 404 for anyone else's.
    func person(_ id: UUID, for user: AuthenticatedUser) async throws -> OutreachContact {
        guard let record = try await repository.record(id, in: user.scope), !record.isDeleted,
            let person = OutreachContact(id: id, fields: record.fields)
        else { throw AppError.notFound("That person") }
        return person
    }

    /// Changes a person's names, enterprise and comments; the person as they were before.
    @discardableResult
    func editPerson(
        _ id: UUID, first: String, last: String, enterprise: String, comments: String, for user: AuthenticatedUser
    ) async throws -> OutreachContact {
        let before = try await person(id, for: user)
        let edits = OutreachFields.edits(first: first, last: last, enterprise: enterprise, comments: comments)
        _ = try await apply(OutreachOperations.editPerson(id, edits), for: user)
        return before
    }

    /// Delivered now (the time of the click), or not delivered. The person as they now are, and
    /// their year's progress, from one read after the write.
    func setDelivered(_ id: UUID, _ delivered: Bool, for user: AuthenticatedUser) async throws
        -> (person: OutreachContact, progress: OutreachProgress)
    {
        try await apply(OutreachOperations.setDelivered(id, delivered), for: user)
        let book = try await book(for: user)
        guard let person = book.contact(id) else { throw AppError.notFound("That person") }
        return (person, book.progress(of: person.yearId))
    }

    /// Deletes a person; the person as they were (the page goes back to their year).
    @discardableResult
    func deletePerson(_ id: UUID, for user: AuthenticatedUser) async throws -> OutreachContact {
        try await apply(OutreachOperations.deletePerson(id), for: user)
    }

    /// Adds the people of a CSV file to a year; a bad row is reported by line and nothing is added.
    func importCSV(_ csv: String, into year: UUID, for user: AuthenticatedUser) async throws -> OutreachImport {
        try await apply(OutreachOperations.importCSV(csv, into: year), for: user)
    }

    // MARK: Plumbing

    @discardableResult
    func apply<Output: Sendable>(_ operation: RecordOperation<Output>, for user: AuthenticatedUser) async throws -> Output {
        try await operations.apply(operation, userID: user.id.lowercased)
    }
}
