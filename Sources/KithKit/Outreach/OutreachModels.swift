import Foundation
import KithCore

/// A year of outreach ("2026"): its own list of people.
public struct OutreachYear: Sendable, Equatable, Identifiable, Codable {
    public let id: UUID
    public var name: String
    public var createdAt: Date

    init?(_ record: LocalRecord) {
        guard let name = record.string("name") else { return nil }
        id = record.id
        self.name = name
        createdAt = record.string("createdAt").flatMap(WireCoding.parseTimestamp) ?? .distantPast
    }
}

/// A person to hand the year's material to.
public struct OutreachContact: Sendable, Equatable, Identifiable, Codable {
    public let id: UUID
    public var yearId: UUID
    public var firstName: String
    public var lastName: String
    public var enterpriseName: String
    public var comments: String
    public var delivered: Bool
    /// When it was marked delivered, on the device where that happened.
    public var deliveredAt: Date?

    init?(_ record: LocalRecord) {
        guard let year = record.string("yearId").flatMap(UUID.init(uuidString:)) else { return nil }
        id = record.id
        yearId = year
        firstName = record.string("firstName") ?? ""
        lastName = record.string("lastName") ?? ""
        enterpriseName = record.string("enterpriseName") ?? ""
        comments = record.string("comments") ?? ""
        delivered = record.bool("delivered") ?? false
        deliveredAt = record.string("deliveredAt").flatMap(WireCoding.parseTimestamp)
    }
}

/// How far a year's outreach has come.
public struct OutreachProgress: Sendable, Equatable, Codable {
    public let delivered: Int
    public let total: Int

    /// 0 to 1; 0 for an empty year.
    public var fraction: Double { total == 0 ? 0 : Double(delivered) / Double(total) }
}
