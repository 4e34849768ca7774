import Foundation
import KithCore

/// The signed-in person's inbox as the web pages read and mark it (the rows `FamilyNoticeJob`
/// delivered into `family_notices`, through `NoticeTables`). The pages use this instead of
/// `/v1/inbox`, which takes only bearer tokens.
struct NoticeInbox: Sendable {
    let database: KithDatabase
    let clock: Clock

    /// How many notices one page of /family/notices shows.
    static let pageSize = 20

    /// Newest first, before `seq` when given; `next` is the `before` of the older page.
    /// Times are written on `zone`'s clock, the reader's.
    func page(of userID: String, before seq: Int64?, zone: TimeZone?) async throws -> InboxPage {
        try await database.read {
            try await NoticeTables(sql: $0).inboxPage(
                of: userID, unreadOnly: false, before: seq, limit: Self.pageSize, zone: zone)
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
}
