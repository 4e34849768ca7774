import Foundation
import KithCore

/// The Outreach app (seed 000) as the web pages use it: the signed-in user's outreach records read
/// from sync storage, and every change written as a mutation of one more device of theirs through
/// `SyncWriter`, so the same rules apply as on push and the user's devices are nudged.
struct OutreachService: Sendable {
    let repository: SyncRepository
    let writer: SyncWriter
    let stamps: WebClock
    let clock: Clock

    static let entities = Set(OutreachEntities.all.map(\.name))

    /// The user's outreach data, ordered as every screen shows it.
    func book(for user: AuthenticatedUser) async throws -> OutreachBook {
        OutreachBook(records: try await records(for: user, Self.entities))
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
                let year = try await addYear(name, copying: nil, for: user)
                book = try await self.book(for: user)
                return (book, year)
            } catch let error as AppError where error.detail.code == "duplicate_year" {
                // Another tab or device created it first: show theirs.
                book = try await self.book(for: user)
                guard case .year(let year) = book.selection(now: clock.now()) else { throw error }
                return (book, year)
            }
        }
    }

    /// Remembers the chosen year, for the next visit and the user's other devices.
    func select(_ year: UUID, for user: AuthenticatedUser) async throws {
        _ = try await existing(OutreachEntities.year, year, for: user, what: "That year")
        let id = OutreachFields.preferencesID(scope: Self.scope(of: user))
        try await write([upsert(OutreachEntities.preferences, id, OutreachFields.lastViewed(year), user: user)], user: user)
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
        let id = UUID()
        let fields = OutreachFields.year(name: name, createdAt: clock.now())
        // The year alone first: if its name is refused, nothing else is written.
        try await write([upsert(OutreachEntities.year, id, fields, user: user)], user: user)
        let copies = people.map { person in
            upsert(
                OutreachEntities.contact, UUID(),
                OutreachFields.newContact(
                    year: id, first: person.firstName, last: person.lastName, enterprise: person.enterpriseName,
                    comments: person.comments),
                user: user)
        }
        try await write(copies, user: user)
        try await select(id, for: user)
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
        let id = UUID()
        let fields = OutreachFields.newContact(year: year, first: first, last: last, enterprise: enterprise, comments: comments)
        try await write([upsert(OutreachEntities.contact, id, fields, user: user)], user: user)
        return id
    }

    func editPerson(
        _ id: UUID, first: String, last: String, enterprise: String, comments: String, for user: AuthenticatedUser
    ) async throws {
        let current = try await existing(OutreachEntities.contact, id, for: user, what: "That person")
        let fields = OutreachFields.edit(first: first, last: last, enterprise: enterprise, comments: comments)
        try await write([upsert(OutreachEntities.contact, id, fields, after: [current], user: user)], user: user)
    }

    /// Delivered now (the time of the click), or not delivered; the person as it now is.
    func setDelivered(_ id: UUID, _ delivered: Bool, for user: AuthenticatedUser) async throws -> OutreachContact {
        let current = try await existing(OutreachEntities.contact, id, for: user, what: "That person")
        let fields = OutreachFields.delivery(delivered, at: clock.now())
        try await write([upsert(OutreachEntities.contact, id, fields, after: [current], user: user)], user: user)
        let updated = try await existing(OutreachEntities.contact, id, for: user, what: "That person")
        guard let person = OutreachContact(id: id, fields: updated.fields) else { throw AppError.notFound("That person") }
        return person
    }

    func deletePerson(_ id: UUID, for user: AuthenticatedUser) async throws {
        let current = try await existing(OutreachEntities.contact, id, for: user, what: "That person")
        try await write([delete(OutreachEntities.contact, id, after: [current], user: user)], user: user)
    }

    /// Adds the people of a CSV file to a year; a bad row is reported by line and nothing is added.
    func importCSV(_ csv: String, into year: UUID, for user: AuthenticatedUser) async throws -> Int {
        _ = try await existing(OutreachEntities.year, year, for: user, what: "That year")
        let people: [[String: JSONValue]]
        do {
            people = try OutreachCSV.people(in: csv, year: year)
        } catch {
            throw AppError.validation(error)
        }
        try await write(people.map { upsert(OutreachEntities.contact, UUID(), $0, user: user) }, user: user)
        return people.count
    }

    // MARK: Plumbing

    static func scope(of user: AuthenticatedUser) -> String { "user:" + user.id.lowercased }

    private func records(for user: AuthenticatedUser, _ entities: Set<String>) async throws -> [SyncRecord] {
        try await repository.liveFields(entities, in: Self.scope(of: user))
    }

    /// The live record `id` of `entity` in the user's scope; 404 otherwise (another user's too).
    private func existing(_ entity: EntityDeclaration, _ id: UUID, for user: AuthenticatedUser, what: String)
        async throws -> SyncRecord
    {
        guard let record = try await repository.record(id), record.entity == entity.name,
            record.scope == Self.scope(of: user), !record.isDeleted
        else { throw AppError.notFound(what) }
        return record
    }

    private func upsert(
        _ entity: EntityDeclaration, _ id: UUID, _ fields: [String: JSONValue], after seen: [SyncRecord] = [],
        user: AuthenticatedUser
    ) -> Mutation {
        Mutation(
            mutationId: UUID(), entity: entity.name, id: id, scope: Self.scope(of: user), op: .upsert, fields: fields,
            hlc: stamps.stamp(after: seen))
    }

    private func delete(_ entity: EntityDeclaration, _ id: UUID, after seen: [SyncRecord], user: AuthenticatedUser) -> Mutation {
        Mutation(
            mutationId: UUID(), entity: entity.name, id: id, scope: Self.scope(of: user), op: .delete,
            hlc: stamps.stamp(after: seen))
    }

    /// Writes the mutations (in batches of at most what one push may carry); the first refusal
    /// becomes the error a person sees.
    private func write(_ mutations: [Mutation], user: AuthenticatedUser) async throws {
        var results: [MutationResult] = []
        for start in stride(from: 0, to: mutations.count, by: SyncController.maxMutations) {
            let batch = Array(mutations[start..<min(start + SyncController.maxMutations, mutations.count)])
            results += try await writer.write(batch, userID: user.id.lowercased)
        }
        if let refused = results.first(where: { $0.status == .rejected }) {
            let field = refused.code == "duplicate_year" ? "name" : nil
            throw AppError.validation(
                APIErrorDetail(code: refused.code ?? "rejected", message: refused.message ?? "The change was refused.", field: field))
        }
    }
}
