import Foundation

struct GenderRepository: MonicaRepository {
    let database: KithDatabase

    func page(account: Int64, _ page: PageRequest) async throws -> RecordPage<GenderRecord> {
        try await reading(account) { storage in try await storage.table(GenderRecord.self).page(page) }
    }

    func find(account: Int64, id: Int64) async throws -> GenderRecord {
        try await reading(account) { storage in try await storage.table(GenderRecord.self).require(id) }
    }

    /// Creates a gender (nil `id`) or changes gender `id` (if it is still a version `ifMatch` names).
    func save(account: Int64, id: Int64?, ifMatch: IfMatch?, name: String, type: String, now: Int64) async throws
        -> GenderRecord
    {
        try await writing(account) { storage in
            if let id { try await storage.check(ifMatch, GenderRecord.self, id: id) }
            let genders = storage.table(GenderRecord.self)
            let values: MonicaColumns = ["name": .text(name), "type": .text(type)]
            if let id {
                _ = try await genders.existing(id, attribute: "gender id")
                return try await genders.update(id, values, now: now)
            }
            return try await genders.insert(values, now: now)
        }
    }

    /// Deletes gender `id`; its contacts keep no gender (foreign key).
    func delete(account: Int64, id: Int64, ifMatch: IfMatch?) async throws {
        try await writing(account) { storage in
            try await storage.check(ifMatch, GenderRecord.self, id: id)
            let genders = storage.table(GenderRecord.self)
            _ = try await genders.existing(id, attribute: "gender id")
            try await genders.delete(id)
        }
    }
}
