import Foundation

/// "`contactIs` is the `type.name` of `ofContact`": Ada is the mother of Byron.
public struct MonicaRelationship: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Required public var contactIs: MonicaContactSummary
    @Required public var ofContact: MonicaContactSummary
    @Lenient public var type: MonicaRelationshipType?

    enum CodingKeys: String, CodingKey {
        case id
        case contactIs = "contact_is", ofContact = "of_contact", type = "relationship_type"
    }
}

/// "father", whose reverse is "son"; grouped as love, family, friend or work.
public struct MonicaRelationshipType: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var name: String
    @Lenient public var reverseName: String?
    @Lenient public var groupID: Int?

    enum CodingKeys: String, CodingKey {
        case id, name
        case reverseName = "name_reverse_relationship", groupID = "relationship_type_group_id"
    }
}
