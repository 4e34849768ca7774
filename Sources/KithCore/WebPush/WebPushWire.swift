import Foundation

/// What a device asks to be pushed (docs/push.md): the Family app's notice kinds, and the
/// Contacts app's dated reminders (birthdays and the like).
public enum WebPushKind: String, Codable, Sendable, CaseIterable, Hashable {
    case before3 = "before_3"
    case before2 = "before_2"
    case before1 = "before_1"
    case due
    case snoozed
    case completion
    case movement
    case missed
    case contactsReminder = "contacts_reminder"

    /// The push kind a Family notice travels as.
    public init(_ notice: NoticeKind) {
        switch notice {
        case .before3: self = .before3
        case .before2: self = .before2
        case .before1: self = .before1
        case .due: self = .due
        case .snoozed: self = .snoozed
        case .completion: self = .completion
        case .movement: self = .movement
        case .missed: self = .missed
        }
    }

    /// How a person reads it on the account page.
    public var label: String {
        switch self {
        case .before3: "3 minutes before"
        case .before2: "2 minutes before"
        case .before1: "1 minute before"
        case .due: "Due"
        case .snoozed: "Snooze over"
        case .completion: "Completed"
        case .movement: "Moved away"
        case .missed: "Missed"
        case .contactsReminder: "Contacts reminders"
        }
    }
}

/// `GET /v1/push/key`: the server's VAPID public key, for `PushManager.subscribe`'s
/// `applicationServerKey`.
public struct WebPushKeyResponse: Codable, Sendable, Equatable {
    /// The uncompressed P-256 point (65 bytes), base64url without padding.
    public var publicKey: String

    public init(publicKey: String) { self.publicKey = publicKey }
}

/// `POST /v1/push/subscriptions`: the browser's `PushSubscription.toJSON()` plus which kinds the
/// device wants and its name. Every field is optional here so that a missing one is refused by the
/// server's checks with its name (422), not by the decoder.
public struct WebPushSubscribeRequest: Codable, Sendable, Equatable {
    public struct Keys: Codable, Sendable, Equatable {
        public var p256dh: String?
        public var auth: String?

        public init(p256dh: String?, auth: String?) {
            self.p256dh = p256dh
            self.auth = auth
        }
    }

    public var endpoint: String?
    public var keys: Keys?
    /// Milliseconds since 1970 when the push service ends the subscription, or null.
    public var expirationTime: Double?
    /// Absent: every kind on a new device, unchanged on a known one.
    public var kinds: [String]?
    /// Absent: named from the User-Agent on a new device ("Chrome on Android"), unchanged on a known one.
    public var name: String?

    public init(
        endpoint: String?, keys: Keys?, expirationTime: Double? = nil, kinds: [String]? = nil, name: String? = nil
    ) {
        self.endpoint = endpoint
        self.keys = keys
        self.expirationTime = expirationTime
        self.kinds = kinds
        self.name = name
    }
}

/// `PATCH /v1/push/subscriptions/{id}`: what changes (absent: kept).
public struct WebPushDeviceUpdate: Codable, Sendable, Equatable {
    public var kinds: [String]?
    public var name: String?

    public init(kinds: [String]? = nil, name: String? = nil) {
        self.kinds = kinds
        self.name = name
    }
}

/// `DELETE /v1/push/subscriptions`: the browser's endpoint, which is all an unsubscribing page knows.
public struct WebPushUnsubscribeRequest: Codable, Sendable, Equatable {
    public var endpoint: String?

    public init(endpoint: String?) { self.endpoint = endpoint }
}

/// A device that gets notifications. The endpoint and keys are never sent back: they are the
/// device's secrets with its push service.
public struct WebPushDeviceDTO: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String
    public var kinds: [WebPushKind]
    public var createdAt: Date
    /// When a push to it was last accepted by its push service; nil: never yet.
    public var lastUsedAt: Date?
    /// Only in the answer to a subscription that found the account's devices full: the device
    /// unused longest, removed to make room.
    public var replaced: ReplacedDevice?

    public struct ReplacedDevice: Codable, Sendable, Equatable {
        public var id: String
        public var name: String

        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    public init(
        id: String, name: String, kinds: [WebPushKind], createdAt: Date, lastUsedAt: Date?,
        replaced: ReplacedDevice? = nil
    ) {
        self.id = id
        self.name = name
        self.kinds = kinds
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.replaced = replaced
    }
}

/// `GET /v1/push/subscriptions`.
public struct WebPushDeviceList: Codable, Sendable, Equatable {
    public var devices: [WebPushDeviceDTO]

    public init(devices: [WebPushDeviceDTO]) { self.devices = devices }
}

/// What the server puts in each push, encrypted for the device (RFC 8291); the page's service
/// worker shows it.
public struct WebPushPayload: Codable, Sendable, Equatable {
    public var title: String
    public var body: String
    /// The page to open on a tap, relative to the server.
    public var url: String
    /// A newer notification with the same tag replaces the older one on the device.
    public var tag: String
    public var kind: WebPushKind
    public var noticeId: String
    /// When the notice was meant to arrive.
    public var at: Date

    public init(title: String, body: String, url: String, tag: String, kind: WebPushKind, noticeId: String, at: Date) {
        self.title = title
        self.body = body
        self.url = url
        self.tag = tag
        self.kind = kind
        self.noticeId = noticeId
        self.at = at
    }
}

/// The bounds the server checks on a subscription.
public enum WebPushLimits {
    /// Longer endpoints than any push service hands out (FCM's are about 200 characters).
    public static let endpointLength = 2048
    /// Code points of a device's name, once trimmed.
    public static let nameLength = 60
}
