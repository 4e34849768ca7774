import Foundation
import KithCore

/// A person's inbox as `/v1/inbox` and the web pages read and mark it (the rows `FamilyNoticeJob`
/// delivered into `family_notices`, through `NoticeTables`).
struct NoticeInbox: Sendable {
    let database: KithDatabase
    let clock: Clock

    /// How many notices one page of /family/notices shows.
    static let pageSize = 20

    /// Newest first, before `seq` when given; `next` is the `before` of the older page.
    /// Times are written on `zone`'s clock, the reader's.
    func page(
        of userID: String, unreadOnly: Bool = false, before seq: Int64?, limit: Int = pageSize, zone: TimeZone?
    ) async throws -> InboxPage {
        try await database.read {
            try await NoticeTables(sql: $0).inboxPage(
                of: userID, unreadOnly: unreadOnly, before: seq, limit: limit, zone: zone)
        }
    }

    func unreadCount(of userID: String) async throws -> Int {
        try await database.read { try await NoticeTables(sql: $0).unreadCount(of: userID) }
    }

    /// Marks these notices (nil: all of them) read; someone else's ids change nothing.
    func markRead(_ ids: [String]?, of userID: String) async throws {
        let now = clock.nowMillis
        try await database.run { try await NoticeTables(sql: $0).markRead(ids, of: userID, at: now) }
    }

    /// Marks them read and counts what is still unread, in one transaction.
    func markReadCountingUnread(_ ids: [String]?, of userID: String) async throws -> Int {
        let now = clock.nowMillis
        return try await database.transaction { sql in
            let tables = NoticeTables(sql: sql)
            try await tables.markRead(ids, of: userID, at: now)
            return try await tables.unreadCount(of: userID)
        }
    }
}
