import Foundation
import KithCore

/// A contact as Monica nests it in other objects (`ContactShort`): who it is, without its details.
public struct MonicaContactSummary: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var uuid: String?
    @Lenient public var firstName: String?
    @Lenient public var lastName: String?
    @Lenient public var nickname: String?
    @Lenient public var completeName: String?
    @Lenient public var initials: String?
    @Lenient public var gender: String?
    @Lenient public var isStarred: Bool
    @Lenient public var isPartial: Bool
    @Lenient public var isDead: Bool
    @Lenient public var isMe: Bool

    enum CodingKeys: String, CodingKey {
        case id, uuid, nickname, initials, gender
        case firstName = "first_name", lastName = "last_name", completeName = "complete_name"
        case isStarred = "is_starred", isPartial = "is_partial", isDead = "is_dead", isMe = "is_me"
    }

    public init(id: Int, firstName: String?, lastName: String? = nil, nickname: String? = nil) {
        self.id = id
        self.firstName = firstName
        self.lastName = lastName
        self.nickname = nickname
        self.completeName = [firstName, lastName].compactMap { $0 }.joined(separator: " ")
        self.isStarred = false
        self.isPartial = false
        self.isDead = false
        self.isMe = false
    }

    /// The name to show: Monica's complete name, else first and last name, else the nickname.
    public var displayName: String { MonicaContact.displayName(completeName, firstName, lastName, nickname, id) }
}

/// A contact with its details, as `GET /contacts/{id}` answers.
public struct MonicaContact: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var uuid: String?
    @Lenient public var firstName: String?
    @Lenient public var lastName: String?
    @Lenient public var nickname: String?
    @Lenient public var completeName: String?
    @Lenient public var initials: String?
    @Lenient public var description: String?
    @Lenient public var gender: String?
    @Lenient public var isStarred: Bool
    @Lenient public var isPartial: Bool
    @Lenient public var isDead: Bool
    @Lenient public var isMe: Bool
    @Lenient public var lastCalled: Date?
    @Lenient public var lastActivityTogether: Date?
    @Lenient public var information: Information?
    @Lenient public var addresses: [MonicaAddress]
    @Lenient public var tags: [MonicaTag]
    @Lenient public var statistics: Statistics?
    /// Present when asked for `with=contactfields`: emails, phones and the like.
    @Lenient public var contactFields: [MonicaContactField]?
    @Lenient public var createdAt: Date?
    @Lenient public var updatedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, uuid, nickname, initials, description, gender, information, addresses, tags, statistics
        case firstName = "first_name", lastName = "last_name", completeName = "complete_name"
        case isStarred = "is_starred", isPartial = "is_partial", isDead = "is_dead", isMe = "is_me"
        case lastCalled = "last_called", lastActivityTogether = "last_activity_together"
        case contactFields, createdAt = "created_at", updatedAt = "updated_at"
    }

    public var displayName: String { Self.displayName(completeName, firstName, lastName, nickname, id) }

    /// The contact as Monica nests it in other objects (an address's `contact`, say).
    public var summary: MonicaContactSummary {
        var summary = MonicaContactSummary(id: id, firstName: firstName, lastName: lastName, nickname: nickname)
        summary.uuid = uuid
        summary.completeName = completeName
        summary.initials = initials
        summary.gender = gender
        summary.isStarred = isStarred
        summary.isPartial = isPartial
        summary.isDead = isDead
        summary.isMe = isMe
        return summary
    }

    /// The last time the user and this contact were in touch (an activity or a call), if known.
    public var lastInteraction: Date? {
        [lastActivityTogether, lastCalled].compactMap { $0 }.max()
    }

    public var job: String? { information?.career?.job }
    public var company: String? { information?.career?.company }

    /// Emails and phone numbers first, in that order, then the other fields.
    public var emails: [String] { contactFields?.filter { $0.kind == .email }.map(\.content) ?? [] }
    public var phones: [String] { contactFields?.filter { $0.kind == .phone }.map(\.content) ?? [] }

    /// What offline search looks in: names, nickname, company, job and emails (docs/contacts-sdk.md).
    public var searchableText: [String?] {
        [firstName, lastName, nickname, completeName, company, job] + emails
    }

    static func displayName(_ complete: String?, _ first: String?, _ last: String?, _ nickname: String?, _ id: Int)
        -> String
    {
        if let complete = complete?.trimmingCharacters(in: .whitespaces), !complete.isEmpty { return complete }
        let joined = [first, last].compactMap { $0 }.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        if !joined.isEmpty { return joined }
        if let nickname, !nickname.isEmpty { return nickname }
        return "Contact \(id)"
    }

    public struct Information: LenientDecodable, Equatable {
        @Lenient public var relationships: [String: RelationshipGroup]
        @Lenient public var dates: Dates?
        @Lenient public var career: Career?
        @Lenient public var foodPreferences: String?
        @Lenient public var howYouMet: HowYouMet?

        enum CodingKeys: String, CodingKey {
            case relationships, dates, career
            case foodPreferences = "food_preferences", howYouMet = "how_you_met"
        }
    }

    /// `love`, `family`, `friend` or `work`: who this contact is related to in that group.
    public struct RelationshipGroup: LenientDecodable, Equatable {
        @Lenient public var total: Int
        /// Monica sends `null` when the group has no one.
        @Lenient public var contacts: [Related]
    }

    public struct Related: LenientDecodable, Equatable {
        @Lenient public var relationship: MonicaNamed?
        @Required public var contact: MonicaContactSummary
    }

    public struct Dates: LenientDecodable, Equatable {
        @Lenient public var birthdate: SpecialDate?
        @Lenient public var deceasedDate: SpecialDate?

        enum CodingKeys: String, CodingKey { case birthdate, deceasedDate = "deceased_date" }
    }

    /// A birthdate or a date of death: known to the day, known but not its year, or guessed from an age.
    public struct SpecialDate: LenientDecodable, Equatable {
        @Lenient public var date: MonicaDay?
        @Lenient public var isAgeBased: Bool
        @Lenient public var isYearUnknown: Bool

        enum CodingKeys: String, CodingKey { case date, isAgeBased = "is_age_based", isYearUnknown = "is_year_unknown" }
    }

    public struct Career: LenientDecodable, Equatable {
        @Lenient public var job: String?
        @Lenient public var company: String?
    }

    public struct HowYouMet: LenientDecodable, Equatable {
        @Lenient public var generalInformation: String?
        @Lenient public var firstMetThroughContact: MonicaContactSummary?

        enum CodingKeys: String, CodingKey {
            case generalInformation = "general_information", firstMetThroughContact = "first_met_through_contact"
        }
    }

    public struct Statistics: LenientDecodable, Equatable {
        @Lenient public var numberOfNotes: Int
        @Lenient public var numberOfActivities: Int
        @Lenient public var numberOfReminders: Int
        @Lenient public var numberOfTasks: Int
        @Lenient public var numberOfGifts: Int

        enum CodingKeys: String, CodingKey {
            case numberOfNotes = "number_of_notes", numberOfActivities = "number_of_activities"
            case numberOfReminders = "number_of_reminders", numberOfTasks = "number_of_tasks"
            case numberOfGifts = "number_of_gifts"
        }
    }
}
