import Foundation

/// A contact field type's fields as a write gives them.
struct ContactFieldTypeInput: Sendable {
    let name: String
    let fontawesomeIcon: String?
    let `protocol`: String?
    let type: String?
    /// Nil: left as it is (a new type is deletable).
    let delible: Bool?
}

struct ContactFieldTypeRepository: MonicaRepository {
    let database: KithDatabase

    func page(account: Int64, _ page: PageRequest) async throws -> RecordPage<ContactFieldTypeRecord> {
        try await reading(account) { storage in try await storage.table(ContactFieldTypeRecord.self).page(page) }
    }

    func find(account: Int64, id: Int64) async throws -> ContactFieldTypeRecord {
        try await reading(account) { storage in try await storage.table(ContactFieldTypeRecord.self).require(id) }
    }

    /// Creates a type (nil `id`) or changes type `id` (if it is still a version `ifMatch` names).
    func save(account: Int64, id: Int64?, ifMatch: IfMatch?, _ input: ContactFieldTypeInput, now: Int64) async throws
        -> ContactFieldTypeRecord
    {
        try await writing(account) { storage in
            if let id { try await storage.check(ifMatch, ContactFieldTypeRecord.self, id: id) }
            let types = storage.table(ContactFieldTypeRecord.self)
            var values: MonicaColumns = [
                "name": .text(input.name), "fontawesome_icon": .text(input.fontawesomeIcon),
                "protocol": .text(input.protocol), "type": .text(input.type),
            ]
            if let delible = input.delible ?? (id == nil ? true : nil) { values["delible"] = .bool(delible) }
            if let id {
                _ = try await types.require(id)
                return try await types.update(id, values, now: now)
            }
            return try await types.insert(values, now: now)
        }
    }

    /// Deletes type `id` with its fields; Email and Phone (not deletable) are refused.
    func delete(account: Int64, id: Int64, ifMatch: IfMatch?) async throws {
        try await writing(account) { storage in
            try await storage.check(ifMatch, ContactFieldTypeRecord.self, id: id)
            let types = storage.table(ContactFieldTypeRecord.self)
            let type = try await types.require(id)
            guard type.delible else { throw MonicaError.invalid("The \(type.name) field type can't be deleted.") }
            try await types.delete(id)
        }
    }
}
