import Foundation
import SQLKit

/// Relationships with their types and the contacts they join.
struct RelationshipsView: Sendable {
    var relationships: [RelationshipRecord]
    var types: [Int64: RelationshipTypeRecord]
    var contacts: WithContacts<Void>
}

/// Relationships come in pairs: creating one creates its reverse (Ada is Bob's parent, Bob is
/// Ada's child), changing or deleting one changes or deletes its reverse.
struct RelationshipRepository: MonicaRepository {
    let database: KithDatabase

    /// A contact's relationships (another account's contact is 404).
    func of(account: Int64, contact contactID: Int64) async throws -> RelationshipsView {
        try await reading(account) { storage in
            _ = try await storage.contacts.require(contactID)
            let found = try await storage.table(RelationshipRecord.self).all(where: "contact_is", in: [contactID])
            return try await Self.view(found, storage)
        }
    }

    func find(account: Int64, id: Int64) async throws -> RelationshipsView {
        try await reading(account) { storage in
            try await Self.view([try await storage.table(RelationshipRecord.self).require(id)], storage)
        }
    }

    func create(account: Int64, contactIs: Int64, ofContact: Int64, typeID: Int64, now: Int64) async throws
        -> RelationshipsView
    {
        try await writing(account) { storage in
            _ = try await storage.contacts.existing(contactIs, attribute: "contact is")
            _ = try await storage.contacts.existing(ofContact, attribute: "of contact")
            let type = try await storage.table(RelationshipTypeRecord.self).existing(
                typeID, attribute: "relationship type id")
            guard contactIs != ofContact else {
                throw MonicaError.invalid("A contact can't be in a relationship with itself.")
            }
            let relationships = storage.table(RelationshipRecord.self)
            let created = try await relationships.insert(
                ["relationship_type_id": .int(typeID), "contact_is": .int(contactIs), "of_contact": .int(ofContact)],
                now: now)
            if let reverse = try await Self.reverseType(of: type, storage) {
                try await relationships.insert(
                    ["relationship_type_id": .int(reverse.id), "contact_is": .int(ofContact), "of_contact": .int(contactIs)],
                    now: now)
            }
            return try await Self.view([created], storage)
        }
    }

    /// Changes the type, and the reverse relationship's type to the new type's reverse (if the
    /// relationship is still a version `ifMatch` names).
    func update(account: Int64, id: Int64, ifMatch: IfMatch?, typeID: Int64, now: Int64) async throws
        -> RelationshipsView
    {
        try await writing(account) { storage in
            try await storage.check(ifMatch, RelationshipRecord.self, id: id)
            let relationships = storage.table(RelationshipRecord.self)
            let relationship = try await relationships.existing(id, attribute: "relationship id")
            let type = try await storage.table(RelationshipTypeRecord.self).existing(
                typeID, attribute: "relationship type id")
            if let reverse = try await Self.reverse(of: relationship, storage),
                let newReverseType = try await Self.reverseType(of: type, storage)
            {
                try await relationships.update(reverse.id, ["relationship_type_id": .int(newReverseType.id)], now: now)
            }
            let updated = try await relationships.update(id, ["relationship_type_id": .int(typeID)], now: now)
            return try await Self.view([updated], storage)
        }
    }

    /// Deletes relationship `id` and its reverse (if it is still a version `ifMatch` names).
    func delete(account: Int64, id: Int64, ifMatch: IfMatch?) async throws {
        try await writing(account) { storage in
            try await storage.check(ifMatch, RelationshipRecord.self, id: id)
            let relationships = storage.table(RelationshipRecord.self)
            let relationship = try await relationships.existing(id, attribute: "relationship id")
            let reverse = try await Self.reverse(of: relationship, storage)
            try await relationships.delete(id)
            if let reverse { try await relationships.delete(reverse.id) }
        }
    }

    // MARK: Types and groups

    func typePage(account: Int64, _ page: PageRequest) async throws -> RecordPage<RelationshipTypeRecord> {
        try await reading(account) { storage in try await storage.table(RelationshipTypeRecord.self).page(page) }
    }

    func type(account: Int64, id: Int64) async throws -> RelationshipTypeRecord {
        try await reading(account) { storage in try await storage.table(RelationshipTypeRecord.self).require(id) }
    }

    func groupPage(account: Int64, _ page: PageRequest) async throws -> RecordPage<RelationshipTypeGroupRecord> {
        try await reading(account) { storage in
            try await storage.table(RelationshipTypeGroupRecord.self).page(page, nullableStamps: true)
        }
    }

    func group(account: Int64, id: Int64) async throws -> RelationshipTypeGroupRecord {
        try await reading(account) { storage in try await storage.table(RelationshipTypeGroupRecord.self).require(id) }
    }

    // MARK: Reading

    private static func view(_ relationships: [RelationshipRecord], _ storage: MonicaStorage) async throws
        -> RelationshipsView
    {
        let types = try await storage.table(RelationshipTypeRecord.self).byID(relationships.map(\.relationshipTypeID))
        let contacts = try await storage.details.summaries(relationships.flatMap(\.namedContacts))
        return RelationshipsView(
            relationships: relationships, types: types, contacts: WithContacts(value: (), contacts: contacts))
    }

    /// The type whose name is this type's reverse name, if the account has one.
    private static func reverseType(of type: RelationshipTypeRecord, _ storage: MonicaStorage) async throws
        -> RelationshipTypeRecord?
    {
        try await storage.sql.select().column("*").from(RelationshipTypeRecord.table)
            .where("account_id", .equal, storage.account).where("name", .equal, type.nameReverseRelationship)
            .orderBy("id").first()?.record(RelationshipTypeRecord.self)
    }

    /// The reverse of a relationship: the other way round, with the reverse of its type.
    private static func reverse(of relationship: RelationshipRecord, _ storage: MonicaStorage) async throws
        -> RelationshipRecord?
    {
        guard let type = try await storage.table(RelationshipTypeRecord.self).find(relationship.relationshipTypeID),
            let reverseType = try await reverseType(of: type, storage)
        else { return nil }
        return try await storage.sql.select().column("*").from(RelationshipRecord.table)
            .where("account_id", .equal, storage.account).where("contact_is", .equal, relationship.ofContact)
            .where("of_contact", .equal, relationship.contactIs).where("relationship_type_id", .equal, reverseType.id)
            .orderBy("id").first()?.record(RelationshipRecord.self)
    }
}
