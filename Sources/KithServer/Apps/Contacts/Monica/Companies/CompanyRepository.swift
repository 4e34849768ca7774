import Foundation
import KithCore

/// A company's fields as a write gives them (a write gives them all).
struct CompanyInput: Sendable {
    let name: String
    let website: String?
    let numberOfEmployees: Int64?
}

struct CompanyRepository: MonicaRepository {
    let database: KithDatabase

    func page(account: Int64, _ page: PageRequest) async throws -> RecordPage<CompanyRecord> {
        try await reading(account) { storage in try await storage.table(CompanyRecord.self).page(page) }
    }

    func find(account: Int64, id: Int64) async throws -> CompanyRecord {
        try await reading(account) { storage in try await storage.table(CompanyRecord.self).require(id) }
    }

    /// Creates a company (nil `id`) or replaces every field of company `id` (if it is still a
    /// version `ifMatch` names): Monica's update resets what is not sent.
    func save(account: Int64, id: Int64?, ifMatch: IfMatch?, _ input: CompanyInput, now: Int64) async throws
        -> CompanyRecord
    {
        try await writing(account) { storage in
            if let id { try await storage.check(ifMatch, CompanyRecord.self, id: id) }
            let companies = storage.table(CompanyRecord.self)
            let values: MonicaColumns = [
                "name": .text(input.name), "website": .text(input.website),
                "number_of_employees": .int(input.numberOfEmployees),
            ]
            if let id {
                _ = try await companies.existing(id, attribute: "company id")
                return try await companies.update(id, values, now: now)
            }
            let company = try await companies.insert(values, now: now)
            try await storage.audit("company_created", about: nil, objects: ["name": .string(input.name)], now: now)
            return company
        }
    }

    /// Deletes company `id` and, as Monica does (the same foreign key), the occupations there.
    func delete(account: Int64, id: Int64, ifMatch: IfMatch?) async throws {
        try await writing(account) { storage in
            try await storage.check(ifMatch, CompanyRecord.self, id: id)
            let companies = storage.table(CompanyRecord.self)
            _ = try await companies.existing(id, attribute: "company id")
            try await companies.delete(id)
        }
    }
}
