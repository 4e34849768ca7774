import Foundation

/// Tags, relationships, and the account's lists of kinds (genders, field types, relationship types).
extension MonicaClient {
    public func tags() async throws -> [MonicaTag] { try await pages("tags").allItems() }

    public func createTag(named name: String) async throws -> MonicaTag {
        try await object("POST", "tags", body: ["name": name])
    }

    public func renameTag(_ id: Int, to name: String) async throws -> MonicaTag {
        try await object("PUT", "tags/\(id)", body: ["name": name])
    }

    public func deleteTag(_ id: Int) async throws { try await delete("tags/\(id)") }

    /// Adds tags to a contact by name (made when missing); answers the contact.
    public func setTags(_ names: [String], on contactID: Int) async throws -> MonicaContact {
        try await object("POST", "contacts/\(contactID)/setTags", body: ["tags": names])
    }

    /// Takes tags off a contact, by id.
    public func unsetTags(_ tagIDs: [Int], on contactID: Int) async throws -> MonicaContact {
        try await object("POST", "contacts/\(contactID)/unsetTag", body: ["tags": tagIDs])
    }

    /// Every relationship of a contact, both ways (Monica does not page this list).
    public func relationships(of contactID: Int) async throws -> [MonicaRelationship] {
        let page: MonicaPage<MonicaRelationship> = try await get("contacts/\(contactID)/relationships")
        return page.items
    }

    public func createRelationship(_ input: MonicaRelationshipInput) async throws -> MonicaRelationship {
        try await object("POST", "relationships", body: input)
    }

    public func updateRelationship(_ id: Int, typeID: Int) async throws -> MonicaRelationship {
        try await object("PUT", "relationships/\(id)", body: ["relationship_type_id": typeID])
    }

    public func deleteRelationship(_ id: Int) async throws { try await delete("relationships/\(id)") }

    public func relationshipTypes() async throws -> [MonicaRelationshipType] {
        try await pages("relationshiptypes").allItems()
    }

    public func relationshipTypeGroups() async throws -> [MonicaRelationshipTypeGroup] {
        try await pages("relationshiptypegroups").allItems()
    }

    public func genders() async throws -> [MonicaGender] { try await pages("genders").allItems() }

    public func contactFieldTypes() async throws -> [MonicaContactFieldType] {
        try await pages("contactfieldtypes").allItems()
    }
}
