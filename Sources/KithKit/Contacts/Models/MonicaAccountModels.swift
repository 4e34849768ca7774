import Foundation

/// The signed-in Monica user (`/me`): checking it is how a token is validated.
public struct MonicaUser: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var firstName: String?
    public var lastName: String?
    public var email: String?
    public var timezone: String?
    public var locale: String?
    public var accountID: Int?

    enum CodingKeys: String, CodingKey {
        case id, email, timezone, locale, account
        case firstName = "first_name", lastName = "last_name"
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.requiredInt(.id)
        firstName = fields.lenientString(.firstName)
        lastName = fields.lenientString(.lastName)
        email = fields.lenientString(.email)
        timezone = fields.lenientString(.timezone)
        locale = fields.lenientString(.locale)
        accountID = fields.lenient(MonicaNamed.self, .account)?.id
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(id, forKey: .id)
        try fields.encodeIfPresent(firstName, forKey: .firstName)
        try fields.encodeIfPresent(lastName, forKey: .lastName)
        try fields.encodeIfPresent(email, forKey: .email)
        try fields.encodeIfPresent(timezone, forKey: .timezone)
        try fields.encodeIfPresent(locale, forKey: .locale)
        if let accountID { try fields.encode(["id": accountID], forKey: .account) }
    }

    public var name: String { [firstName, lastName].compactMap { $0 }.joined(separator: " ") }
}

/// Anything Monica sends as an id and a name: an activity type's category, a relationship type's
/// group, the relationship named inside a contact.
public struct MonicaNamed: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var name: String

    enum CodingKeys: String, CodingKey { case id, name }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.requiredInt(.id)
        name = fields.lenientString(.name) ?? ""
    }
}

public typealias MonicaActivityTypeCategory = MonicaNamed
public typealias MonicaRelationshipTypeGroup = MonicaNamed

/// A gender a contact can have ("Man", "Woman", "Rather not say", or the account's own).
public struct MonicaGender: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var name: String
    /// `M`, `F`, `O` or nil.
    public var type: String?

    enum CodingKeys: String, CodingKey { case id, name, type }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.requiredInt(.id)
        name = fields.lenientString(.name) ?? ""
        type = fields.lenientString(.type)
    }
}

/// `DELETE`'s answer: `{"deleted": true, "id": 12}` (the id is text for some resources).
struct MonicaDeletion: Decodable {
    let deleted: Bool

    enum CodingKeys: String, CodingKey { case deleted }

    init(from decoder: any Decoder) throws {
        deleted = try decoder.container(keyedBy: CodingKeys.self).lenientBool(.deleted) ?? false
    }
}

/// `{"data": …}`, the envelope of every single object.
struct MonicaEnvelope<Item: Decodable>: Decodable {
    let data: Item
}
