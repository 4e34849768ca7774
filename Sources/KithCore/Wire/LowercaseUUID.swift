import Foundation

/// Encodes a UUID in lower case, the form used everywhere on the wire and in storage (Foundation
/// writes upper case). Decoding accepts either case.
@propertyWrapper
public struct LowercaseUUID: Codable, Sendable, Hashable {
    public var wrappedValue: UUID

    public init(wrappedValue: UUID) { self.wrappedValue = wrappedValue }

    /// Reads only the `8-4-4-4-12` form (`UUID(text:)`), as the readers that skip the decoder do.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let uuid = UUID(text: try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Attempted to decode UUID from invalid UUID string.")
        }
        wrappedValue = uuid
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue.lowercased)
    }
}

extension UUID {
    /// `00000000-0000-0000-0000-000000000000`: what an unreadable stored id reads as, rather than a
    /// random one that would differ on every read.
    public static let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}
