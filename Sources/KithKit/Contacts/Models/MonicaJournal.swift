import Foundation

/// A note about a contact.
public struct MonicaNote: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var body: String
    public var isFavorited: Bool
    public var favoritedAt: Date?
    public var contact: MonicaContactSummary?
    public var createdAt: Date?
    public var updatedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, body, contact
        case isFavorited = "is_favorited", favoritedAt = "favorited_at", createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.requiredInt(.id)
        body = fields.lenientString(.body) ?? ""
        isFavorited = fields.lenientBool(.isFavorited) ?? false
        favoritedAt = fields.lenientDate(.favoritedAt)
        contact = fields.lenient(MonicaContactSummary.self, .contact)
        createdAt = fields.lenientDate(.createdAt)
        updatedAt = fields.lenientDate(.updatedAt)
    }
}

/// Something to do, usually about a contact.
public struct MonicaTask: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var title: String
    public var description: String?
    public var completed: Bool
    public var completedAt: Date?
    public var contact: MonicaContactSummary?
    public var createdAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, title, description, completed, contact
        case completedAt = "completed_at", createdAt = "created_at"
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.requiredInt(.id)
        title = fields.lenientString(.title) ?? ""
        description = fields.lenientString(.description)
        completed = fields.lenientBool(.completed) ?? false
        completedAt = fields.lenientDate(.completedAt)
        contact = fields.lenient(MonicaContactSummary.self, .contact)
        createdAt = fields.lenientDate(.createdAt)
    }

    /// Open tasks first (oldest first), then done ones (most recently done first): seed 004 story 7.
    public static func openBeforeDone(_ a: MonicaTask, _ b: MonicaTask) -> Bool {
        if a.completed != b.completed { return !a.completed }
        if a.completed {
            return (a.completedAt ?? .distantPast, a.id) > (b.completedAt ?? .distantPast, b.id)
        }
        return (a.createdAt ?? .distantPast, a.id) < (b.createdAt ?? .distantPast, b.id)
    }
}

/// A gift idea, or a gift offered or received.
public struct MonicaGift: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var name: String
    public var comment: String?
    public var url: String?
    /// The amount as Monica sends it: text such as "12.50" (or a number on some servers).
    public var amount: String?
    /// `idea`, `offered` or `received`.
    public var status: String
    public var date: MonicaDay?
    public var recipient: MonicaContactSummary?
    public var contact: MonicaContactSummary?

    enum CodingKeys: String, CodingKey {
        case id, name, comment, url, amount, value, status, date, recipient, contact
        case amountWithCurrency = "amount_with_currency"
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.requiredInt(.id)
        name = fields.lenientString(.name) ?? ""
        comment = fields.lenientString(.comment)
        url = fields.lenientString(.url)
        let amounts = [
            fields.lenientString(.amountWithCurrency), fields.lenientString(.amount), fields.lenientString(.value),
        ]
        amount = amounts.compactMap { $0 }.first { !$0.isEmpty }
        status = fields.lenientString(.status) ?? "idea"
        date = fields.lenientDay(.date)
        recipient = fields.lenient(MonicaContactSummary.self, .recipient)
        contact = fields.lenient(MonicaContactSummary.self, .contact)
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(id, forKey: .id)
        try fields.encode(name, forKey: .name)
        try fields.encodeIfPresent(comment, forKey: .comment)
        try fields.encodeIfPresent(url, forKey: .url)
        try fields.encodeIfPresent(amount, forKey: .amount)
        try fields.encode(status, forKey: .status)
        try fields.encodeIfPresent(date, forKey: .date)
        try fields.encodeIfPresent(recipient, forKey: .recipient)
        try fields.encodeIfPresent(contact, forKey: .contact)
    }
}

/// A reminder about a contact: once, or every N weeks, months or years from its first date.
public struct MonicaReminder: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var title: String
    public var description: String?
    /// `one_time`, `week`, `month` or `year`.
    public var frequencyType: String
    public var frequencyNumber: Int
    public var initialDate: MonicaDay?
    public var contact: MonicaContactSummary?

    enum CodingKeys: String, CodingKey {
        case id, title, description, contact
        case frequencyType = "frequency_type", frequencyNumber = "frequency_number", initialDate = "initial_date"
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.requiredInt(.id)
        title = fields.lenientString(.title) ?? ""
        description = fields.lenientString(.description)
        frequencyType = fields.lenientString(.frequencyType) ?? "one_time"
        frequencyNumber = fields.lenientInt(.frequencyNumber) ?? 1
        initialDate = fields.lenientDay(.initialDate)
        contact = fields.lenient(MonicaContactSummary.self, .contact)
    }

    /// "Once", "Every year", "Every 2 weeks".
    public var frequencyText: String {
        guard frequencyType != "one_time" else { return "Once" }
        let unit = frequencyType == "week" ? "week" : frequencyType == "month" ? "month" : "year"
        return frequencyNumber <= 1 ? "Every \(unit)" : "Every \(frequencyNumber) \(unit)s"
    }
}

/// A tag that organises contacts.
public struct MonicaTag: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var name: String
    public var nameSlug: String?

    enum CodingKeys: String, CodingKey { case id, name, nameSlug = "name_slug" }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.requiredInt(.id)
        name = fields.lenientString(.name) ?? ""
        nameSlug = fields.lenientString(.nameSlug)
    }
}
