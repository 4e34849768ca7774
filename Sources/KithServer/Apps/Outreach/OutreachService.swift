import Foundation
import KithCore

/// The Outreach app's records as the web pages read them (the signed-in user's, from sync
/// storage). Changes are `OutreachOperations`, applied by the pages through `OperationWriter`.
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
        let year = try await operations.apply(OutreachOperations.openYear(), for: user)
        return (try await self.book(for: user), year)
    }

    /// One person of the user's; 404 for anyone else's.
    func person(_ id: UUID, for user: AuthenticatedUser) async throws -> OutreachContact {
        guard let record = try await repository.record(id, in: user.scope), !record.isDeleted,
            let person = OutreachContact(id: id, fields: record.fields)
        else { throw AppError.notFound("That person") }
        return person
    }

    /// A year's progress, counted by the database: what a delivery tick answers, without reading
    /// the year's thousands of people.
    func progress(of year: UUID, for user: AuthenticatedUser) async throws -> OutreachProgress {
        let counted = try await repository.count(
            OutreachEntities.contact.name, in: user.scope, where: OutreachFields.yearId, is: year.lowercased,
            flagged: OutreachFields.delivered)
        return OutreachProgress(delivered: counted.flagged, total: counted.all)
    }
}
