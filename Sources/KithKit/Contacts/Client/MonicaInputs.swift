import Foundation
import KithCore

/// What creating or updating a contact sends (Monica's `POST`/`PUT /contacts`).
public struct MonicaContactInput: Encodable, Sendable, Equatable {
    public var firstName: String
    public var lastName: String?
    public var nickname: String?
    public var description: String?
    public var genderID: Int?
    public var birthdate: MonicaDay?
    public var isDeceased = false

    public init(
        firstName: String, lastName: String? = nil, nickname: String? = nil, description: String? = nil,
        genderID: Int? = nil, birthdate: MonicaDay? = nil, isDeceased: Bool = false
    ) {
        self.firstName = firstName
        self.lastName = lastName
        self.nickname = nickname
        self.description = description
        self.genderID = genderID
        self.birthdate = birthdate
        self.isDeceased = isDeceased
    }

    enum CodingKeys: String, CodingKey {
        case firstName = "first_name", lastName = "last_name", nickname, description, genderID = "gender_id"
        case isBirthdateKnown = "is_birthdate_known", isDeceased = "is_deceased"
        case isDeceasedDateKnown = "is_deceased_date_known", birthdateDay = "birthdate_day"
        case birthdateMonth = "birthdate_month", birthdateYear = "birthdate_year"
    }

    /// Monica requires the three flags on every save, and the day and month when a birthdate is known.
    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(firstName, forKey: .firstName)
        try fields.encodeIfPresent(lastName, forKey: .lastName)
        try fields.encodeIfPresent(nickname, forKey: .nickname)
        try fields.encodeIfPresent(description, forKey: .description)
        try fields.encodeIfPresent(genderID, forKey: .genderID)
        try fields.encode(birthdate != nil, forKey: .isBirthdateKnown)
        try fields.encode(isDeceased, forKey: .isDeceased)
        try fields.encode(false, forKey: .isDeceasedDateKnown)
        if let birthdate {
            try fields.encode(birthdate.day, forKey: .birthdateDay)
            try fields.encode(birthdate.month, forKey: .birthdateMonth)
            try fields.encode(birthdate.year, forKey: .birthdateYear)
        }
    }
}

/// What creating or replacing an address sends. `contact_id` is always sent: Monica refuses an
/// update without it (the seed's iOS client left it out and got 422s).
public struct MonicaAddressInput: Codable, Sendable, Equatable {
    public var contactID: Int
    public var address: PostalAddress

    public init(contactID: Int, _ address: PostalAddress) {
        self.contactID = contactID
        self.address = address
    }

    enum CodingKeys: String, CodingKey {
        case contactID = "contact_id", name, street, city, province, country, latitude, longitude
        case postalCode = "postal_code"
    }

    /// Every field, null when empty: Monica's update replaces the whole address.
    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        func text(_ value: String?) -> String? {
            guard let value = value?.trimmedWhitespace, !value.isEmpty else { return nil }
            return value
        }
        try fields.encode(contactID, forKey: .contactID)
        try fields.encode(text(address.label), forKey: .name)
        try fields.encode(text(address.street), forKey: .street)
        try fields.encode(text(address.city), forKey: .city)
        try fields.encode(text(address.province), forKey: .province)
        try fields.encode(text(address.postalCode), forKey: .postalCode)
        try fields.encode(text(address.countryCode)?.uppercased(), forKey: .country)
        try fields.encode(address.latitude, forKey: .latitude)
        try fields.encode(address.longitude, forKey: .longitude)
    }

    /// Reads an input as `encode(to:)` writes it (the contacts cache keeps queued edits so).
    public init(from decoder: any Decoder) throws {
        let stored = try Stored(from: decoder)
        self.init(
            contactID: stored.contactID,
            PostalAddress(
                label: stored.name, street: stored.street, city: stored.city, province: stored.province,
                postalCode: stored.postalCode, countryCode: stored.country, latitude: stored.latitude,
                longitude: stored.longitude))
    }

    private struct Stored: Decodable {
        @Required var contactID: Int
        @Lenient var name: String?
        @Lenient var street: String?
        @Lenient var city: String?
        @Lenient var province: String?
        @Lenient var postalCode: String?
        @Lenient var country: String?
        @Lenient var latitude: Double?
        @Lenient var longitude: Double?

        typealias CodingKeys = MonicaAddressInput.CodingKeys
    }
}

public struct MonicaNoteInput: Encodable, Sendable, Equatable {
    public var contactID: Int
    public var body: String
    public var isFavorited: Bool

    public init(contactID: Int, body: String, isFavorited: Bool = false) {
        self.contactID = contactID
        self.body = body
        self.isFavorited = isFavorited
    }

    enum CodingKeys: String, CodingKey { case contactID = "contact_id", body, isFavorited = "is_favorited" }
}

public struct MonicaTaskInput: Encodable, Sendable, Equatable {
    public var contactID: Int?
    public var title: String
    public var description: String?
    public var completed: Bool

    public init(contactID: Int?, title: String, description: String? = nil, completed: Bool = false) {
        self.contactID = contactID
        self.title = title
        self.description = description
        self.completed = completed
    }

    enum CodingKeys: String, CodingKey { case contactID = "contact_id", title, description, completed }
}

public struct MonicaGiftInput: Encodable, Sendable, Equatable {
    public var contactID: Int
    public var name: String
    public var comment: String?
    public var url: String?
    public var amount: Double?
    /// `idea`, `offered` or `received`.
    public var status: String
    public var date: MonicaDay?

    public init(
        contactID: Int, name: String, status: String = "idea", comment: String? = nil, url: String? = nil,
        amount: Double? = nil, date: MonicaDay? = nil
    ) {
        self.contactID = contactID
        self.name = name
        self.status = status
        self.comment = comment
        self.url = url
        self.amount = amount
        self.date = date
    }

    enum CodingKeys: String, CodingKey { case contactID = "contact_id", name, comment, url, amount, status, date }
}

public struct MonicaReminderInput: Encodable, Sendable, Equatable {
    public var contactID: Int
    public var title: String
    public var description: String?
    public var initialDate: MonicaDay
    /// `one_time`, `week`, `month` or `year`.
    public var frequencyType: String
    public var frequencyNumber: Int

    public init(
        contactID: Int, title: String, initialDate: MonicaDay, frequencyType: String = "one_time",
        frequencyNumber: Int = 1, description: String? = nil
    ) {
        self.contactID = contactID
        self.title = title
        self.initialDate = initialDate
        self.frequencyType = frequencyType
        self.frequencyNumber = frequencyNumber
        self.description = description
    }

    enum CodingKeys: String, CodingKey {
        case contactID = "contact_id", title, description, initialDate = "initial_date"
        case frequencyType = "frequency_type", frequencyNumber = "frequency_number"
    }
}

/// "`contactIs` is the `type` of `ofContact`"; Monica adds the reverse relationship itself.
public struct MonicaRelationshipInput: Encodable, Sendable, Equatable {
    public var contactIs: Int
    public var ofContact: Int
    public var typeID: Int

    public init(contactIs: Int, ofContact: Int, typeID: Int) {
        self.contactIs = contactIs
        self.ofContact = ofContact
        self.typeID = typeID
    }

    enum CodingKeys: String, CodingKey {
        case contactIs = "contact_is", ofContact = "of_contact", typeID = "relationship_type_id"
    }
}
