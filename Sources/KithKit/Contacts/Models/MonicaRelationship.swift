import Foundation

/// "`contactIs` is the `type.name` of `ofContact`": Ada is the mother of Byron.
public struct MonicaRelationship: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var contactIs: MonicaContactSummary
    public var ofContact: MonicaContactSummary
    public var type: MonicaRelationshipType?

    enum CodingKeys: String, CodingKey {
        case id
        case contactIs = "contact_is", ofContact = "of_contact", type = "relationship_type"
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.requiredInt(.id)
        contactIs = try fields.decode(MonicaContactSummary.self, forKey: .contactIs)
        ofContact = try fields.decode(MonicaContactSummary.self, forKey: .ofContact)
        type = fields.lenient(MonicaRelationshipType.self, .type)
    }
}

/// "father", whose reverse is "son"; grouped as love, family, friend or work.
public struct MonicaRelationshipType: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var name: String
    public var reverseName: String?
    public var groupID: Int?

    enum CodingKeys: String, CodingKey {
        case id, name
        case reverseName = "name_reverse_relationship", groupID = "relationship_type_group_id"
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.requiredInt(.id)
        name = fields.lenientString(.name) ?? ""
        reverseName = fields.lenientString(.reverseName)
        groupID = fields.lenientInt(.groupID)
    }
}
