import Foundation

/// A row of `monica_relationships`: `contactIs` is the `type` of `ofContact`; each has its reverse.
struct RelationshipRecord: MonicaRecord {
    static let table = "monica_relationships"

    let id: Int64
    let relationshipTypeID: Int64
    let contactIs: Int64
    let ofContact: Int64
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id
        case relationshipTypeID = "relationship_type_id", contactIs = "contact_is", ofContact = "of_contact"
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}

extension RelationshipRecord: NamesContacts {
    var namedContacts: [Int64] { [contactIs, ofContact] }
}
