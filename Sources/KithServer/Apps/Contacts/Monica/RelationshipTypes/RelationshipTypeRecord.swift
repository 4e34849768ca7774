import Foundation

/// A row of `monica_relationship_types`: a name and the name of its reverse (parent, child).
struct RelationshipTypeRecord: MonicaRecord {
    static let table = "monica_relationship_types"

    let id: Int64
    let name: String
    let nameReverseRelationship: String
    let relationshipTypeGroupID: Int64?
    @StoredFlag var delible: Bool
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, name, delible
        case nameReverseRelationship = "name_reverse_relationship"
        case relationshipTypeGroupID = "relationship_type_group_id", createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

/// A row of `monica_relationship_type_groups`: love, family, friend, work.
struct RelationshipTypeGroupRecord: MonicaRecord {
    static let table = "monica_relationship_type_groups"

    let id: Int64
    let name: String
    @StoredFlag var delible: Bool
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, name, delible
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}
