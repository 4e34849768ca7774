import Foundation

/// A phone call with a contact.
public struct MonicaCall: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var calledAt: Date?
    @Lenient public var content: String?
    /// Whether the contact made the call (else you did).
    @Lenient public var contactCalled: Bool
    @Lenient public var contact: MonicaContactSummary?

    enum CodingKeys: String, CodingKey {
        case id, content, contact
        case calledAt = "called_at", contactCalled = "contact_called"
    }

    /// The latest call first.
    public static func newestFirst(_ a: MonicaCall, _ b: MonicaCall) -> Bool {
        (a.calledAt ?? .distantPast, a.id) > (b.calledAt ?? .distantPast, b.id)
    }
}

/// Money owed, by you to the contact (`inDebt` "yes") or by the contact to you ("no").
public struct MonicaDebt: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var inDebt: String
    /// `inprogress` or `completed`.
    @Lenient public var status: String
    @Lenient public var amountWithCurrency: String?
    @Lenient public var value: String?
    @Lenient public var reason: String?
    @Lenient public var contact: MonicaContactSummary?

    enum CodingKeys: String, CodingKey {
        case id, status, value, reason, contact
        case inDebt = "in_debt", amountWithCurrency = "amount_with_currency"
    }

    public var youOwe: Bool { inDebt == "yes" }
    public var isSettled: Bool { status == "completed" }
    /// "$12.00", or the bare value when the server gives no currency.
    public var amount: String { [amountWithCurrency, value].compactMap { $0 }.first { !$0.isEmpty } ?? "" }
}

/// A contact's pet.
public struct MonicaPet: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var name: String?
    @Lenient public var petCategory: Category?
    @Lenient public var contact: MonicaContactSummary?

    enum CodingKeys: String, CodingKey { case id, name, contact, petCategory = "pet_category" }

    /// Monica's kinds of pets (`cat`, `dog`, `small_animal`…).
    public struct Category: LenientDecodable, Equatable {
        @Required public var id: Int
        @Lenient public var name: String

        enum CodingKeys: String, CodingKey { case id, name }
    }

    /// "Cat", "Small animal".
    public var kind: String {
        let name = (petCategory?.name ?? "").replacingOccurrences(of: "_", with: " ")
        return name.prefix(1).uppercased() + name.dropFirst()
    }
}

/// Something that happened in a contact's life (a new job, a move), of one of the account's types.
public struct MonicaLifeEvent: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var name: String?
    @Lenient public var note: String?
    /// A day (Monica answers it as that day's midnight, UTC).
    @Lenient public var happenedAt: MonicaDay?
    @Lenient public var lifeEventType: Kind?
    @Lenient public var contact: MonicaContactSummary?

    enum CodingKeys: String, CodingKey {
        case id, name, note, contact
        case happenedAt = "happened_at", lifeEventType = "life_event_type"
    }

    public struct Kind: LenientDecodable, Equatable {
        @Required public var id: Int
        @Lenient var givenName: String?
        /// Monica's key of one of its default types (`new_job`), which it sends without a name.
        @Lenient var defaultKey: String?

        enum CodingKeys: String, CodingKey { case id, givenName = "name", defaultKey = "default_life_event_type_key" }

        /// The type's name, or its default key in words ("new_job": "New job").
        public var name: String? {
            if let givenName, !givenName.isEmpty { return givenName }
            guard let key = defaultKey?.replacingOccurrences(of: "_", with: " "), !key.isEmpty else { return nil }
            return key.prefix(1).uppercased() + key.dropFirst()
        }
    }

    /// The latest first.
    public static func newestFirst(_ a: MonicaLifeEvent, _ b: MonicaLifeEvent) -> Bool {
        if a.happenedAt != b.happenedAt {
            guard let left = a.happenedAt else { return false }
            guard let right = b.happenedAt else { return true }
            return left > right
        }
        return a.id > b.id
    }
}

/// An exchange with a contact over one medium (email, a messaging app…), message by message.
public struct MonicaConversation: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var happenedAt: Date?
    @Lenient public var messages: [Message]
    @Lenient public var contactFieldType: Medium?
    @Lenient public var contact: MonicaContactSummary?

    enum CodingKeys: String, CodingKey {
        case id, messages, contact
        case happenedAt = "happened_at", contactFieldType = "contact_field_type"
    }

    public struct Message: LenientDecodable, Equatable, Identifiable {
        @Required public var id: Int
        @Lenient public var content: String
        @Lenient public var writtenAt: Date?
        @Lenient public var writtenByMe: Bool

        enum CodingKeys: String, CodingKey {
            case id, content
            case writtenAt = "written_at", writtenByMe = "written_by_me"
        }
    }

    /// The contact field type the conversation happened over ("Email", "Telegram").
    public struct Medium: LenientDecodable, Equatable {
        @Required public var id: Int
        @Lenient public var name: String

        enum CodingKeys: String, CodingKey { case id, name }
    }

    /// The latest first.
    public static func newestFirst(_ a: MonicaConversation, _ b: MonicaConversation) -> Bool {
        (a.happenedAt ?? .distantPast, a.id) > (b.happenedAt ?? .distantPast, b.id)
    }
}
