import Foundation

/// A year of outreach ("2026"): its own list of people.
public struct OutreachYear: Sendable, Equatable, Identifiable, Codable {
    @LowercaseUUID public var id: UUID
    public var name: String
    public var createdAt: Date

    /// The year a synced record holds; nil when the record is not one.
    public init?(id: UUID, fields: [String: JSONTree]) {
        guard case .string(let name) = fields["name"] else { return nil }
        _id = LowercaseUUID(wrappedValue: id)
        self.name = name
        createdAt = fields["createdAt"]?.stringValue.flatMap(WireCoding.parseTimestamp) ?? .distantPast
    }
}

/// A person to hand the year's material to.
public struct OutreachContact: Sendable, Equatable, Identifiable, Codable {
    @LowercaseUUID public var id: UUID
    @LowercaseUUID public var yearId: UUID
    public var firstName: String
    public var lastName: String
    public var enterpriseName: String
    public var comments: String
    public var delivered: Bool
    /// When it was marked delivered, on the device where that happened.
    public var deliveredAt: Date?

    /// The person a synced record holds; nil when the record is not one.
    public init?(id: UUID, fields: [String: JSONTree]) {
        guard let year = fields["yearId"]?.stringValue.flatMap(UUID.init(text:)) else { return nil }
        _id = LowercaseUUID(wrappedValue: id)
        _yearId = LowercaseUUID(wrappedValue: year)
        firstName = fields["firstName"]?.stringValue ?? ""
        lastName = fields["lastName"]?.stringValue ?? ""
        enterpriseName = fields["enterpriseName"]?.stringValue ?? ""
        comments = fields["comments"]?.stringValue ?? ""
        if case .bool(let value) = fields["delivered"] { delivered = value } else { delivered = false }
        deliveredAt = fields["deliveredAt"]?.stringValue.flatMap(WireCoding.parseTimestamp)
    }

    /// "Ada Lovelace", or whichever part is there.
    public var fullName: String {
        [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ")
    }
}

/// How far a year's outreach has come.
public struct OutreachProgress: Sendable, Equatable, Codable {
    public let delivered: Int
    public let total: Int

    public init(delivered: Int, total: Int) {
        self.delivered = delivered
        self.total = total
    }

    public init(of people: [OutreachContact]) {
        self.init(delivered: people.count(where: \.delivered), total: people.count)
    }

    /// 0 to 1; 0 for an empty year.
    public var fraction: Double { total == 0 ? 0 : Double(delivered) / Double(total) }
}
