import Foundation

/// The signed-in Monica user (`/me`): checking it is how a token is validated.
public struct MonicaUser: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var firstName: String?
    @Lenient public var lastName: String?
    @Lenient public var email: String?
    @Lenient public var timezone: String?
    @Lenient public var locale: String?
    /// The account's id, from `"account": {"id": 1}`.
    @Nested<MonicaObjectID> public var accountID: Int?

    enum CodingKeys: String, CodingKey {
        case id, email, timezone, locale
        case firstName = "first_name", lastName = "last_name", accountID = "account"
    }

    public var name: String { [firstName, lastName].compactMap { $0 }.joined(separator: " ") }
}

/// Anything Monica sends as an id and a name: an activity type's category, a relationship type's
/// group, the relationship named inside a contact.
public struct MonicaNamed: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var name: String
}

public typealias MonicaActivityTypeCategory = MonicaNamed
public typealias MonicaRelationshipTypeGroup = MonicaNamed

/// A gender a contact can have ("Man", "Woman", "Rather not say", or the account's own).
public struct MonicaGender: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var name: String
    /// `M`, `F`, `O` or nil.
    @Lenient public var type: String?
}

/// The id of an object Monica nests where only its id matters (`"account": {"id": 1}`).
public enum MonicaObjectID: NestedField {
    public typealias Value = Int?
    public static var key: String { "id" }
}

/// `DELETE`'s answer: `{"deleted": true, "id": 12}` (the id is text for some resources).
struct MonicaDeletion: Decodable {
    @Lenient var deleted: Bool
}

/// `{"data": …}`, the envelope of every single object.
struct MonicaEnvelope<Item: Decodable>: Decodable {
    let data: Item
}
