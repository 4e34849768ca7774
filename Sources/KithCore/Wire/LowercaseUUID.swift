import Foundation

/// Encodes a UUID in lower case, the form used everywhere on the wire and in storage (Foundation
/// writes upper case). Decoding accepts either.
@propertyWrapper
public struct LowercaseUUID: Codable, Sendable, Hashable {
    public var wrappedValue: UUID

    public init(wrappedValue: UUID) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(UUID.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue.uuidString.lowercased())
    }
}

extension UUID {
    /// The lower-case text form every Kith table and wire message uses.
    public var lowercased: String { uuidString.lowercased() }

    /// `00000000-0000-0000-0000-000000000000`: what an unreadable stored id reads as, rather than a
    /// random one that would differ on every read.
    public static let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}
