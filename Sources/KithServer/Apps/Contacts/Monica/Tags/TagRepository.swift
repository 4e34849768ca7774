import Foundation
import SQLKit

struct TagRepository: MonicaRepository {
    let database: KithDatabase

    func page(account: Int64, _ page: PageRequest) async throws -> RecordPage<TagRecord> {
        try await reading(account) { storage in try await storage.table(TagRecord.self).page(page) }
    }

    func find(account: Int64, id: Int64) async throws -> TagRecord {
        try await reading(account) { storage in try await storage.table(TagRecord.self).require(id) }
    }

    /// Creates a tag (nil `id`) or renames tag `id` (if it is still a version `ifMatch` names);
    /// names are unique per account.
    func save(account: Int64, id: Int64?, ifMatch: IfMatch?, name: String, now: Int64) async throws -> TagRecord {
        try await writing(account) { storage in
            if let id { try await storage.check(ifMatch, TagRecord.self, id: id) }
            let tags = storage.table(TagRecord.self)
            if let existing = try await Self.named(name, storage), existing.id != id {
                throw MonicaError.invalid("A tag named \"\(name)\" already exists.")
            }
            let values: MonicaColumns = ["name": .text(name), "name_slug": .text(TagSlug.slug(name))]
            if let id {
                _ = try await tags.require(id)
                return try await tags.update(id, values, now: now)
            }
            return try await tags.insert(values, now: now)
        }
    }

    func delete(account: Int64, id: Int64, ifMatch: IfMatch?) async throws {
        try await writing(account) { storage in
            try await storage.check(ifMatch, TagRecord.self, id: id)
            let tags = storage.table(TagRecord.self)
            _ = try await tags.require(id)
            try await tags.delete(id)
        }
    }

    /// A page of the tag's contacts, in full with their contact fields.
    func contacts(account: Int64, tagID: Int64, _ page: PageRequest) async throws -> RecordPage<ContactDetails> {
        try await reading(account) { storage in
            _ = try await storage.table(TagRecord.self).require(tagID)
            let found = try await storage.contacts.page(
                page,
                filter: linked("id", through: "monica_contact_tags", select: "contact_id", where: "tag_id", is: tagID))
            let details = try await storage.details.details(of: found.records, withContactFields: true)
            return RecordPage(records: details, total: found.total)
        }
    }

    /// Attaches tags by name to contact `contactID`, creating the ones the account does not have.
    func attach(account: Int64, names: [String], to contactID: Int64, now: Int64) async throws {
        try await writing(account) { storage in
            _ = try await storage.contacts.require(contactID)
            try await Self.attach(names, to: contactID, storage, now: now)
        }
    }

    /// The same inside a unit of work that has checked the contact.
    static func attach(_ names: [String], to contactID: Int64, _ storage: MonicaStorage, now: Int64) async throws {
        for name in names {
            let tag = try await named(name, storage).asyncOr {
                try await storage.table(TagRecord.self).insert(
                    ["name": .text(name), "name_slug": .text(TagSlug.slug(name))], now: now)
            }
            let linked = try await storage.sql.select().column("tag_id").from("monica_contact_tags")
                .where("contact_id", .equal, contactID).where("tag_id", .equal, tag.id).first()
            if linked == nil {
                try await storage.sql.insert(into: "monica_contact_tags")
                    .columns("contact_id", "tag_id", "account_id", "created_at")
                    .values(SQLBind(contactID), SQLBind(tag.id), SQLBind(storage.account), SQLBind(now)).run()
            }
        }
    }

    /// Detaches tags `tagIDs` (each must be the account's, or nothing changes), or all of them (nil).
    func detach(account: Int64, tagIDs: [Int64]?, from contactID: Int64) async throws {
        try await writing(account) { storage in
            _ = try await storage.contacts.require(contactID)
            guard let tagIDs else {
                try await storage.sql.delete(from: "monica_contact_tags").where("contact_id", .equal, contactID).run()
                return
            }
            for id in tagIDs {
                _ = try await storage.table(TagRecord.self).require(id)
                try await storage.sql.delete(from: "monica_contact_tags").where("contact_id", .equal, contactID)
                    .where("tag_id", .equal, id).run()
            }
        }
    }

    private static func named(_ name: String, _ storage: MonicaStorage) async throws -> TagRecord? {
        try await storage.sql.select().column("*").from(TagRecord.table).where("account_id", .equal, storage.account)
            .where("name", .equal, name).first()?.record(TagRecord.self)
    }
}

/// Laravel's `Str::slug`: accents dropped, lower case, runs of other characters as one dash.
enum TagSlug {
    static func slug(_ name: String) -> String {
        let ascii = name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        var slug = ""
        var pendingDash = false
        for character in ascii {
            if character.isASCII && (character.isLetter || character.isNumber) {
                if pendingDash && !slug.isEmpty { slug.append("-") }
                slug.append(character)
                pendingDash = false
            } else {
                pendingDash = true
            }
        }
        return slug
    }
}
