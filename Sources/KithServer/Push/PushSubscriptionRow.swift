import Foundation
import KithCore

/// A `push_subscriptions` row: one device of one account, with the keys its push service gave it.
struct PushSubscriptionRow: Codable, Sendable, Equatable {
    var id: String
    var userID: String
    var endpoint: String
    var p256dh: String
    var auth: String
    /// The kinds it wants, comma-separated raw values (`due,before_1`); empty: none.
    var kinds: String
    var name: String
    var expiresAt: Int64?
    var createdAt: Int64
    var updatedAt: Int64
    var lastUsedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, endpoint, p256dh, auth, kinds, name
        case userID = "user_id"
        case expiresAt = "expires_at"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case lastUsedAt = "last_used_at"
    }

    var kindSet: Set<WebPushKind> { Set(kinds.split(separator: ",").compactMap { WebPushKind(rawValue: String($0)) }) }

    func wants(_ kind: WebPushKind) -> Bool { kindSet.contains(kind) }

    /// The kinds as stored: in `WebPushKind`'s order, so the same choice is always the same text.
    static func kindsText(_ kinds: Set<WebPushKind>) -> String {
        WebPushKind.allCases.filter(kinds.contains).map(\.rawValue).joined(separator: ",")
    }

    /// When it was last in touch: a push accepted, or the browser subscribing again. The device
    /// with the oldest is the one a full account gives up.
    var lastSeen: Int64 { max(updatedAt, lastUsedAt ?? 0) }

    func dto(replaced: PushSubscriptionRow? = nil) -> WebPushDeviceDTO {
        WebPushDeviceDTO(
            id: id, name: name, kinds: WebPushKind.allCases.filter(kindSet.contains),
            createdAt: Date(epochMillis: createdAt), lastUsedAt: lastUsedAt.map(Date.init(epochMillis:)),
            replaced: replaced.map { WebPushDeviceDTO.ReplacedDevice(id: $0.id, name: $0.name) })
    }
}
