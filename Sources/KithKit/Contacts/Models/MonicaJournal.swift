import Foundation

/// A note about a contact.
public struct MonicaNote: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var body: String
    @Lenient public var isFavorited: Bool
    @Lenient public var favoritedAt: Date?
    @Lenient public var contact: MonicaContactSummary?
    @Lenient public var createdAt: Date?
    @Lenient public var updatedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, body, contact
        case isFavorited = "is_favorited", favoritedAt = "favorited_at", createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

/// Something to do, usually about a contact.
public struct MonicaTask: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var title: String
    @Lenient public var description: String?
    @Lenient public var completed: Bool
    @Lenient public var completedAt: Date?
    @Lenient public var contact: MonicaContactSummary?
    @Lenient public var createdAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, title, description, completed, contact
        case completedAt = "completed_at", createdAt = "created_at"
    }

    /// Open tasks first (oldest first), then done ones (most recently done first).
    public static func openBeforeDone(_ a: MonicaTask, _ b: MonicaTask) -> Bool {
        if a.completed != b.completed { return !a.completed }
        if a.completed {
            return (a.completedAt ?? .distantPast, a.id) > (b.completedAt ?? .distantPast, b.id)
        }
        return (a.createdAt ?? .distantPast, a.id) < (b.createdAt ?? .distantPast, b.id)
    }
}

/// A gift idea, or a gift offered or received.
public struct MonicaGift: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var name: String
    @Lenient public var comment: String?
    @Lenient public var url: String?
    /// `idea`, `offered` or `received`.
    @Defaulted<Idea> public var status: String
    @Lenient public var date: MonicaDay?
    @Lenient public var recipient: MonicaContactSummary?
    @Lenient public var contact: MonicaContactSummary?
    /// Monica sends the amount as `amount_with_currency` ("$12.50"), `amount` and `value`, as text
    /// or as a number, depending on its version.
    @Lenient var amountWithCurrency: String?
    @Lenient var givenAmount: String?
    @Lenient var value: String?

    enum CodingKeys: String, CodingKey {
        case id, name, comment, url, value, status, date, recipient, contact
        case amountWithCurrency = "amount_with_currency", givenAmount = "amount"
    }

    /// The amount as Monica shows it ("$12.50"), or nil when there is none.
    public var amount: String? {
        get { [amountWithCurrency, givenAmount, value].compactMap { $0 }.first { !$0.isEmpty } }
        set {
            givenAmount = newValue
            amountWithCurrency = nil
            value = nil
        }
    }

    /// A gift with no status is an idea.
    public enum Idea: LenientFallback {
        public static var value: String { "idea" }
    }
}

/// A reminder about a contact: once, or every N weeks, months or years from its first date.
public struct MonicaReminder: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var title: String
    @Lenient public var description: String?
    /// `one_time`, `week`, `month` or `year`.
    @Defaulted<OneTime> public var frequencyType: String
    @Defaulted<Once> public var frequencyNumber: Int
    @Lenient public var initialDate: MonicaDay?
    @Lenient public var contact: MonicaContactSummary?

    enum CodingKeys: String, CodingKey {
        case id, title, description, contact
        case frequencyType = "frequency_type", frequencyNumber = "frequency_number", initialDate = "initial_date"
    }

    /// A reminder with no frequency is a one-time reminder…
    public enum OneTime: LenientFallback {
        public static var value: String { "one_time" }
    }

    /// …and one without a number counts every 1 week, month or year.
    public enum Once: LenientFallback {
        public static var value: Int { 1 }
    }

    /// "Once", "Every year", "Every 2 weeks".
    public var frequencyText: String {
        guard frequencyType != "one_time" else { return "Once" }
        let unit = frequencyType == "week" ? "week" : frequencyType == "month" ? "month" : "year"
        return frequencyNumber <= 1 ? "Every \(unit)" : "Every \(frequencyNumber) \(unit)s"
    }
}

/// A tag that organises contacts.
public struct MonicaTag: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var name: String
    @Lenient public var nameSlug: String?

    enum CodingKeys: String, CodingKey { case id, name, nameSlug = "name_slug" }
}
