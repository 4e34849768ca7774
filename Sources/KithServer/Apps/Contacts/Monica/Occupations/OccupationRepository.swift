import Foundation

/// An occupation's fields as a write gives them (a write gives them all).
struct OccupationInput: Sendable {
    let contactID: Int64
    let companyID: Int64
    let title: String
    let description: String?
    let salary: Int64?
    let salaryUnit: String?
    let currentlyWorksHere: Bool?
    let startDate: String?
    let endDate: String?
}

/// Occupations with the companies and contacts they name, read in the same unit of work.
struct OccupationsView: Sendable {
    let occupations: [OccupationRecord]
    let companies: [Int64: CompanyRecord]
    let contacts: WithContacts<Void>
}

struct OccupationRepository: MonicaRepository {
    let database: KithDatabase

    func page(account: Int64, _ page: PageRequest) async throws -> (view: OccupationsView, total: Int) {
        try await reading(account) { storage in
            let found = try await storage.table(OccupationRecord.self).page(page)
            let view = try await Self.view(found.records, storage)
            return (view: view, total: found.total)
        }
    }

    func find(account: Int64, id: Int64) async throws -> OccupationsView {
        try await reading(account) { storage in
            try await Self.view([try await storage.table(OccupationRecord.self).require(id)], storage)
        }
    }

    /// Creates an occupation (nil `id`) or replaces the fields of occupation `id` (if it is still a
    /// version `ifMatch` names): Monica's update resets what is not sent. The contact and the
    /// company must be the account's; an update keeps both, and naming others is 404, as Monica
    /// finds the occupation by them.
    func save(account: Int64, id: Int64?, ifMatch: IfMatch?, _ input: OccupationInput, now: Int64) async throws
        -> OccupationsView
    {
        try await writing(account) { storage in
            if let id { try await storage.check(ifMatch, OccupationRecord.self, id: id) }
            let occupations = storage.table(OccupationRecord.self)
            let current = try await id.asyncMap { try await occupations.existing($0, attribute: "occupation id") }
            _ = try await storage.contacts.existing(input.contactID, attribute: "contact id")
            _ = try await storage.table(CompanyRecord.self).existing(input.companyID, attribute: "company id")
            if let current, current.contactID != input.contactID || current.companyID != input.companyID {
                throw MonicaError.notFound
            }
            let values: MonicaColumns = [
                "title": .text(input.title), "description": .text(input.description), "salary": .int(input.salary),
                "salary_unit": .text(input.salaryUnit), "currently_works_here": .bool(input.currentlyWorksHere),
                "start_date": .text(input.startDate), "end_date": .text(input.endDate),
            ]
            let saved: OccupationRecord
            if let id {
                saved = try await occupations.update(id, values, now: now)
            } else {
                var created = values
                created["contact_id"] = .int(input.contactID)
                created["company_id"] = .int(input.companyID)
                saved = try await occupations.insert(created, now: now)
            }
            return try await Self.view([saved], storage)
        }
    }

    func delete(account: Int64, id: Int64, ifMatch: IfMatch?) async throws {
        try await writing(account) { storage in
            try await storage.check(ifMatch, OccupationRecord.self, id: id)
            let occupations = storage.table(OccupationRecord.self)
            _ = try await occupations.existing(id, attribute: "occupation id")
            try await occupations.delete(id)
        }
    }

    private static func view(_ occupations: [OccupationRecord], _ storage: MonicaStorage) async throws
        -> OccupationsView
    {
        let companies = try await storage.table(CompanyRecord.self).byID(occupations.map(\.companyID))
        let contacts = try await storage.details.summaries(occupations.flatMap(\.namedContacts))
        return OccupationsView(
            occupations: occupations, companies: companies, contacts: WithContacts(value: (), contacts: contacts))
    }
}
