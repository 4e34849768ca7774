import Foundation
import KithCore

/// A contact as Monica nests it in other objects (`ContactShort`): who it is, without its details.
public struct MonicaContactSummary: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var uuid: String?
    public var firstName: String?
    public var lastName: String?
    public var nickname: String?
    public var completeName: String?
    public var initials: String?
    public var gender: String?
    public var isStarred: Bool
    public var isPartial: Bool
    public var isDead: Bool
    public var isMe: Bool

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

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.requiredInt(.id)
        uuid = fields.lenientString(.uuid)
        firstName = fields.lenientString(.firstName)
        lastName = fields.lenientString(.lastName)
        nickname = fields.lenientString(.nickname)
        completeName = fields.lenientString(.completeName)
        initials = fields.lenientString(.initials)
        gender = fields.lenientString(.gender)
        isStarred = fields.lenientBool(.isStarred) ?? false
        isPartial = fields.lenientBool(.isPartial) ?? false
        isDead = fields.lenientBool(.isDead) ?? false
        isMe = fields.lenientBool(.isMe) ?? false
    }

    /// The name to show: Monica's complete name, else first and last name, else the nickname.
    public var displayName: String { MonicaContact.displayName(completeName, firstName, lastName, nickname, id) }
}

/// A contact with its details, as `GET /contacts/{id}` answers (seed 004 story 4).
public struct MonicaContact: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var uuid: String?
    public var firstName: String?
    public var lastName: String?
    public var nickname: String?
    public var completeName: String?
    public var initials: String?
    public var description: String?
    public var gender: String?
    public var isStarred: Bool
    public var isPartial: Bool
    public var isDead: Bool
    public var isMe: Bool
    public var lastCalled: Date?
    public var lastActivityTogether: Date?
    public var information: Information?
    public var addresses: [MonicaAddress]
    public var tags: [MonicaTag]
    public var statistics: Statistics?
    /// Present when asked for `with=contactfields`: emails, phones and the like.
    public var contactFields: [MonicaContactField]?
    public var createdAt: Date?
    public var updatedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, uuid, nickname, initials, description, gender, information, addresses, tags, statistics
        case firstName = "first_name", lastName = "last_name", completeName = "complete_name"
        case isStarred = "is_starred", isPartial = "is_partial", isDead = "is_dead", isMe = "is_me"
        case lastCalled = "last_called", lastActivityTogether = "last_activity_together"
        case contactFields, createdAt = "created_at", updatedAt = "updated_at"
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.requiredInt(.id)
        uuid = fields.lenientString(.uuid)
        firstName = fields.lenientString(.firstName)
        lastName = fields.lenientString(.lastName)
        nickname = fields.lenientString(.nickname)
        completeName = fields.lenientString(.completeName)
        initials = fields.lenientString(.initials)
        description = fields.lenientString(.description)
        gender = fields.lenientString(.gender)
        isStarred = fields.lenientBool(.isStarred) ?? false
        isPartial = fields.lenientBool(.isPartial) ?? false
        isDead = fields.lenientBool(.isDead) ?? false
        isMe = fields.lenientBool(.isMe) ?? false
        lastCalled = fields.lenientDate(.lastCalled)
        lastActivityTogether = fields.lenientDate(.lastActivityTogether)
        information = fields.lenient(Information.self, .information)
        addresses = fields.lenientArray(MonicaAddress.self, .addresses)
        tags = fields.lenientArray(MonicaTag.self, .tags)
        statistics = fields.lenient(Statistics.self, .statistics)
        contactFields =
            fields.contains(.contactFields) ? fields.lenientArray(MonicaContactField.self, .contactFields) : nil
        createdAt = fields.lenientDate(.createdAt)
        updatedAt = fields.lenientDate(.updatedAt)
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

    public struct Information: Codable, Sendable, Equatable {
        public var relationships: [String: RelationshipGroup]
        public var dates: Dates?
        public var career: Career?
        public var foodPreferences: String?
        public var howYouMet: HowYouMet?

        enum CodingKeys: String, CodingKey {
            case relationships, dates, career
            case foodPreferences = "food_preferences", howYouMet = "how_you_met"
        }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            relationships = fields.lenient([String: RelationshipGroup].self, .relationships) ?? [:]
            dates = fields.lenient(Dates.self, .dates)
            career = fields.lenient(Career.self, .career)
            foodPreferences = fields.lenientString(.foodPreferences)
            howYouMet = fields.lenient(HowYouMet.self, .howYouMet)
        }
    }

    /// `love`, `family`, `friend` or `work`: who this contact is related to in that group.
    public struct RelationshipGroup: Codable, Sendable, Equatable {
        public var total: Int
        public var contacts: [Related]

        enum CodingKeys: String, CodingKey { case total, contacts }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            total = fields.lenientInt(.total) ?? 0
            // Monica sends `null` when the group does not exist.
            contacts = fields.lenientArray(Related.self, .contacts)
        }
    }

    public struct Related: Codable, Sendable, Equatable {
        public var relationship: MonicaNamed?
        public var contact: MonicaContactSummary

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            relationship = fields.lenient(MonicaNamed.self, .relationship)
            contact = try fields.decode(MonicaContactSummary.self, forKey: .contact)
        }

        enum CodingKeys: String, CodingKey { case relationship, contact }
    }

    public struct Dates: Codable, Sendable, Equatable {
        public var birthdate: SpecialDate?
        public var deceasedDate: SpecialDate?

        enum CodingKeys: String, CodingKey { case birthdate, deceasedDate = "deceased_date" }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            birthdate = fields.lenient(SpecialDate.self, .birthdate)
            deceasedDate = fields.lenient(SpecialDate.self, .deceasedDate)
        }
    }

    /// A birthdate or a date of death: known to the day, known but not its year, or guessed from an age.
    public struct SpecialDate: Codable, Sendable, Equatable {
        public var date: MonicaDay?
        public var isAgeBased: Bool
        public var isYearUnknown: Bool

        enum CodingKeys: String, CodingKey { case date, isAgeBased = "is_age_based", isYearUnknown = "is_year_unknown" }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            date = fields.lenientDay(.date)
            isAgeBased = fields.lenientBool(.isAgeBased) ?? false
            isYearUnknown = fields.lenientBool(.isYearUnknown) ?? false
        }
    }

    public struct Career: Codable, Sendable, Equatable {
        public var job: String?
        public var company: String?

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            job = fields.lenientString(.job)
            company = fields.lenientString(.company)
        }

        enum CodingKeys: String, CodingKey { case job, company }
    }

    public struct HowYouMet: Codable, Sendable, Equatable {
        public var generalInformation: String?
        public var firstMetThroughContact: MonicaContactSummary?

        enum CodingKeys: String, CodingKey {
            case generalInformation = "general_information", firstMetThroughContact = "first_met_through_contact"
        }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            generalInformation = fields.lenientString(.generalInformation)
            firstMetThroughContact = fields.lenient(MonicaContactSummary.self, .firstMetThroughContact)
        }
    }

    public struct Statistics: Codable, Sendable, Equatable {
        public var numberOfNotes: Int
        public var numberOfActivities: Int
        public var numberOfReminders: Int
        public var numberOfTasks: Int
        public var numberOfGifts: Int

        enum CodingKeys: String, CodingKey {
            case numberOfNotes = "number_of_notes", numberOfActivities = "number_of_activities"
            case numberOfReminders = "number_of_reminders", numberOfTasks = "number_of_tasks"
            case numberOfGifts = "number_of_gifts"
        }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            numberOfNotes = fields.lenientInt(.numberOfNotes) ?? 0
            numberOfActivities = fields.lenientInt(.numberOfActivities) ?? 0
            numberOfReminders = fields.lenientInt(.numberOfReminders) ?? 0
            numberOfTasks = fields.lenientInt(.numberOfTasks) ?? 0
            numberOfGifts = fields.lenientInt(.numberOfGifts) ?? 0
        }
    }
}
