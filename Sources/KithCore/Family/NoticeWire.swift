import Foundation

/// One notice in a person's inbox (`GET /v1/inbox`) and in a live `notice` message.
public struct NoticeDTO: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var kind: NoticeKind
    /// What a person reads first ("Feed the cat is due").
    public var title: String
    /// The rest ("Due at 07:30." / "Byron completed it.").
    public var body: String
    public var reminderId: String
    /// The due time of the occurrence it is about (for a completion: when it was completed).
    public var occurrence: Date
    /// When it was meant to arrive.
    public var dueAt: Date
    /// When the server delivered it; later than `dueAt` when the server was down at the time (`late`).
    public var deliveredAt: Date
    public var late: Bool
    public var readAt: Date?
    /// Where its sequence stands: pages of the inbox go back from a `before` value.
    public var seq: Int64
    /// `title` and `body` with their moments kept (`NoticeWording`), so a reader's device writes
    /// them on its own clock (`rendered(in:)`); `title` and `body` are written for the zone the
    /// request named, else in UTC saying so.
    public var wording: Wording?
    /// What became of its reminder since it came ("completed", "deleted"), as the reader's
    /// family stands when the inbox is read; nil while the notice still stands (`NoticePlan.since`).
    public var since: NoticeAftermath?

    /// A notice's stored words (see `NoticeWording`).
    public struct Wording: Codable, Sendable, Equatable {
        public var title: String
        public var body: String

        public init(title: String, body: String) {
            self.title = title
            self.body = body
        }
    }

    public init(
        id: String, kind: NoticeKind, title: String, body: String, reminderId: String, occurrence: Date, dueAt: Date,
        deliveredAt: Date, late: Bool, readAt: Date?, seq: Int64, wording: Wording? = nil
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.body = body
        self.reminderId = reminderId
        self.occurrence = occurrence
        self.dueAt = dueAt
        self.deliveredAt = deliveredAt
        self.late = late
        self.readAt = readAt
        self.seq = seq
        self.wording = wording
    }
}

/// `GET /v1/inbox?unread=true&limit=50&before=SEQ`: newest first.
public struct InboxPage: Codable, Sendable, Equatable {
    public var notices: [NoticeDTO]
    /// How many of the user's notices are unread, in all.
    public var unread: Int
    /// Pass as `before` for the next (older) page; nil on the last.
    public var next: Int64?

    public init(notices: [NoticeDTO], unread: Int, next: Int64?) {
        self.notices = notices
        self.unread = unread
        self.next = next
    }
}

/// `POST /v1/inbox/read`: these notices, or all of them, are read.
public struct MarkNoticesReadRequest: Codable, Sendable {
    public var ids: [String]?
    public var all: Bool?

    public init(ids: [String]? = nil, all: Bool? = nil) {
        self.ids = ids
        self.all = all
    }
}

public enum InboxLimits {
    public static let page = 1...200
    public static let defaultPage = 50
    /// Ids in one `POST /v1/inbox/read`.
    public static let idsPerRequest = 500
}
