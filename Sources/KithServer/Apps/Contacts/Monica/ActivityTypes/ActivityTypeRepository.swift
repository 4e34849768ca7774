import Foundation

/// Activity types (each with its category) and their categories.
struct ActivityTypeRepository: MonicaRepository {
    let database: KithDatabase

    func page(account: Int64, _ page: PageRequest) async throws
        -> (types: RecordPage<ActivityTypeRecord>, categories: [Int64: ActivityTypeCategoryRecord])
    {
        try await reading(account) { storage in
            let types = try await storage.table(ActivityTypeRecord.self).page(page, nullableStamps: true)
            return (types, try await Self.categories(of: types.records, storage))
        }
    }

    func find(account: Int64, id: Int64) async throws -> (type: ActivityTypeRecord, category: ActivityTypeCategoryRecord?) {
        try await reading(account) { storage in
            let type = try await storage.table(ActivityTypeRecord.self).require(id)
            return (type, try await Self.categories(of: [type], storage)[type.activityTypeCategoryID])
        }
    }

    /// Creates a type (nil `id`) or changes type `id` (if it is still a version `ifMatch` names),
    /// in an existing category of the account's.
    func save(
        account: Int64, id: Int64?, ifMatch: IfMatch?, categoryID: Int64, name: String?, translationKey: String?,
        now: Int64
    ) async throws -> (type: ActivityTypeRecord, category: ActivityTypeCategoryRecord?) {
        try await writing(account) { storage in
            if let id { try await storage.check(ifMatch, ActivityTypeRecord.self, id: id) }
            let category = try await storage.table(ActivityTypeCategoryRecord.self).existing(
                categoryID, attribute: "activity type category id")
            let types = storage.table(ActivityTypeRecord.self)
            let values: MonicaColumns = [
                "activity_type_category_id": .int(categoryID), "name": .text(name),
                "translation_key": .text(translationKey),
            ]
            if let id {
                _ = try await types.existing(id, attribute: "activity type id")
                return (try await types.update(id, values, now: now), category)
            }
            return (try await types.insert(values, now: now), category)
        }
    }

    func delete(account: Int64, id: Int64, ifMatch: IfMatch?) async throws {
        try await writing(account) { storage in
            try await storage.check(ifMatch, ActivityTypeRecord.self, id: id)
            let types = storage.table(ActivityTypeRecord.self)
            _ = try await types.existing(id, attribute: "activity type id")
            try await types.delete(id)
        }
    }

    // MARK: Categories

    func categoryPage(account: Int64, _ page: PageRequest) async throws -> RecordPage<ActivityTypeCategoryRecord> {
        try await reading(account) { storage in
            try await storage.table(ActivityTypeCategoryRecord.self).page(page, nullableStamps: true)
        }
    }

    func category(account: Int64, id: Int64) async throws -> ActivityTypeCategoryRecord {
        try await reading(account) { storage in try await storage.table(ActivityTypeCategoryRecord.self).require(id) }
    }

    func checkCategoryExists(account: Int64, id: Int64) async throws {
        _ = try await reading(account) { storage in
            try await storage.table(ActivityTypeCategoryRecord.self).existing(id, attribute: "activity type category id")
        }
    }

    func saveCategory(
        account: Int64, id: Int64?, ifMatch: IfMatch?, name: String?, translationKey: String?, now: Int64
    ) async throws -> ActivityTypeCategoryRecord {
        try await writing(account) { storage in
            if let id { try await storage.check(ifMatch, ActivityTypeCategoryRecord.self, id: id) }
            let categories = storage.table(ActivityTypeCategoryRecord.self)
            let values: MonicaColumns = ["name": .text(name), "translation_key": .text(translationKey)]
            if let id { return try await categories.update(id, values, now: now) }
            return try await categories.insert(values, now: now)
        }
    }

    func deleteCategory(account: Int64, id: Int64, ifMatch: IfMatch?) async throws {
        try await writing(account) { storage in
            try await storage.check(ifMatch, ActivityTypeCategoryRecord.self, id: id)
            let categories = storage.table(ActivityTypeCategoryRecord.self)
            _ = try await categories.existing(id, attribute: "activity type category id")
            try await categories.delete(id)
        }
    }

    private static func categories(of types: [ActivityTypeRecord], _ storage: MonicaStorage) async throws
        -> [Int64: ActivityTypeCategoryRecord]
    {
        try await storage.table(ActivityTypeCategoryRecord.self).byID(types.map(\.activityTypeCategoryID))
    }
}
