import Foundation
import KithCore

/// The Outreach app (seed 000) as the web pages use it: the signed-in user's outreach records read
/// from sync storage, and every change written as a mutation of one more device of theirs through
/// `SyncWriter`, so the same rules apply as on push and the user's devices are nudged.
struct OutreachService: WritesAsADevice, Sendable {
    let repository: SyncRepository
    let writer: SyncWriter
    let stamps: WebClock
    let clock: Clock
    let ids: IdentifierSource

    static let entities = Set(OutreachEntities.all.map(\.name))

    /// The user's outreach data, ordered as every screen shows it.
    func book(for user: AuthenticatedUser) async throws -> OutreachBook {
        OutreachBook(records: try await repository.liveFields(Self.entities, in: Self.scope(of: user)))
    }

    /// The year to show: `requested` when it exists, else the selection rule (the year last chosen on
    /// any device, …); with no year at all, the current year is created. Showing remembers nothing:
    /// choosing does (`select`).
    func open(for user: AuthenticatedUser, requested: UUID?) async throws -> (book: OutreachBook, year: OutreachYear) {
        var book = try await book(for: user)
        if let requested, let year = book.year(requested) { return (book, year) }
        switch book.selection(now: clock.now()) {
        case .year(let year):
            return (book, year)
        case .create(let name):
            do {
                try await addYear(name, copying: nil, for: user)
            } catch let error as AppError where error.detail.code == "duplicate_year" {
                // Another tab or device created it first: theirs is shown.
            }
            book = try await self.book(for: user)
            guard case .year(let year) = book.selection(now: clock.now()) else { throw AppError.notFound("The current year") }
            return (book, year)
        }
    }

    /// Remembers the chosen year, for the next visit and the user's other devices.
    func select(_ year: UUID, for user: AuthenticatedUser) async throws {
        _ = try await existing(OutreachEntities.year, year, for: user, what: "That year")
        try await remember(year, for: user)
    }

    /// A new year, empty or with the people of `source` (names, enterprise, comments; none delivered).
    @discardableResult
    func addYear(_ name: String, copying source: UUID?, for user: AuthenticatedUser) async throws -> OutreachYear {
        var people: [OutreachContact] = []
        if let source {
            let book = try await book(for: user)
            guard book.year(source) != nil else { throw AppError.notFound("That year") }
            people = book.people(in: source)
        }
        let id = ids.uuid()
        let fields = OutreachFields.year(name: name, createdAt: clock.now())
        // The year alone first: if its name is refused, nothing else is written.
        try await write([upsert(OutreachEntities.year, id, fields, user: user)], user: user)
        let copies = people.map { person in
            upsert(
                OutreachEntities.contact, ids.uuid(),
                OutreachFields.newContact(
                    year: id, first: person.firstName, last: person.lastName, enterprise: person.enterpriseName,
                    comments: person.comments),
                user: user)
        }
        try await write(copies, user: user)
        try await remember(id, for: user)
        guard let year = OutreachYear(id: id, fields: fields) else { throw AppError.notFound("The new year") }
        return year
    }

    func renameYear(_ id: UUID, to name: String, for user: AuthenticatedUser) async throws {
        let current = try await existing(OutreachEntities.year, id, for: user, what: "That year")
        try await write([upsert(OutreachEntities.year, id, ["name": .string(OutreachRules.trimmed(name))], after: [current], user: user)], user: user)
    }

    /// Deletes a year and (on the server, with the same stamp) its people. The last year stays.
    func deleteYear(_ id: UUID, for user: AuthenticatedUser) async throws {
        let current = try await existing(OutreachEntities.year, id, for: user, what: "That year")
        try await write([delete(OutreachEntities.year, id, after: [current], user: user)], user: user)
    }

    @discardableResult
    func addPerson(
        to year: UUID, first: String, last: String, enterprise: String, comments: String, for user: AuthenticatedUser
    ) async throws -> UUID {
        let id = ids.uuid()
        let fields = OutreachFields.newContact(year: year, first: first, last: last, enterprise: enterprise, comments: comments)
        try await write([upsert(OutreachEntities.contact, id, fields, user: user)], user: user)
        return id
    }

    /// One person of the user's; 404 for anyone else's.
    func person(_ id: UUID, for user: AuthenticatedUser) async throws -> OutreachContact {
        let record = try await existing(OutreachEntities.contact, id, for: user, what: "That person")
        guard let person = OutreachContact(id: id, fields: record.fields) else { throw AppError.notFound("That person") }
        return person
    }

    /// Changes a person's names, enterprise and comments; the person as they were before.
    @discardableResult
    func editPerson(
        _ id: UUID, first: String, last: String, enterprise: String, comments: String, for user: AuthenticatedUser
    ) async throws -> OutreachContact {
        let current = try await existing(OutreachEntities.contact, id, for: user, what: "That person")
        let fields = OutreachFields.edit(first: first, last: last, enterprise: enterprise, comments: comments)
        try await write([upsert(OutreachEntities.contact, id, fields, after: [current], user: user)], user: user)
        guard let person = OutreachContact(id: id, fields: current.fields) else { throw AppError.notFound("That person") }
        return person
    }

    /// Delivered now (the time of the click), or not delivered. The person as they now are, and
    /// their year's progress, from one read after the write.
    func setDelivered(_ id: UUID, _ delivered: Bool, for user: AuthenticatedUser) async throws
        -> (person: OutreachContact, progress: OutreachProgress)
    {
        let current = try await existing(OutreachEntities.contact, id, for: user, what: "That person")
        let fields = OutreachFields.delivery(delivered, at: clock.now())
        try await write([upsert(OutreachEntities.contact, id, fields, after: [current], user: user)], user: user)
        let book = try await book(for: user)
        guard let person = book.contact(id) else { throw AppError.notFound("That person") }
        return (person, book.progress(of: person.yearId))
    }

    /// Deletes a person; the person as they were (the page goes back to their year).
    @discardableResult
    func deletePerson(_ id: UUID, for user: AuthenticatedUser) async throws -> OutreachContact {
        let current = try await existing(OutreachEntities.contact, id, for: user, what: "That person")
        try await write([delete(OutreachEntities.contact, id, after: [current], user: user)], user: user)
        guard let person = OutreachContact(id: id, fields: current.fields) else { throw AppError.notFound("That person") }
        return person
    }

    /// Adds the people of a CSV file to a year; a bad row is reported by line and nothing is added.
    func importCSV(_ csv: String, into year: UUID, for user: AuthenticatedUser) async throws -> Int {
        _ = try await existing(OutreachEntities.year, year, for: user, what: "That year")
        let people: [[String: JSONTree]]
        do {
            people = try OutreachCSV.people(in: csv, year: year)
        } catch {
            throw AppError.validation(error)
        }
        try await write(people.map { upsert(OutreachEntities.contact, ids.uuid(), $0, user: user) }, user: user)
        return people.count
    }

    // MARK: Plumbing

    /// The account's one preferences record, without checking the year (callers know it exists).
    private func remember(_ year: UUID, for user: AuthenticatedUser) async throws {
        let id = OutreachFields.preferencesID(scope: Self.scope(of: user))
        try await write([upsert(OutreachEntities.preferences, id, OutreachFields.lastViewed(year), user: user)], user: user)
    }
}
