import Foundation
import KithCore

/// The signed-in user's inbox of notices (`/v1/inbox`, docs/family.md): what the server delivered
/// (due, before-due, snoozed, completion and movement notices), newest first. The same notices
/// arrive live as `SyncEngine.Event.notice` while the socket is open; the inbox is where they stay.
extension KithClient {
    /// One page of notices, newest first: the first page without `before`, the next (older) one
    /// with the page's `next`. `unreadOnly` leaves out the notices already read. The limit is
    /// checked here first (`InboxLimits.page`), so a wrong one costs no round trip. Every time in
    /// the notices' words is written on `timeZone`'s clock, the reader's (the device's by default);
    /// a notice that came live is written so with `NoticeDTO.rendered(in:)`.
    public func inbox(
        unreadOnly: Bool = false, limit: Int = InboxLimits.defaultPage, before: Int64? = nil,
        timeZone: TimeZone = .current
    ) async throws -> InboxPage {
        try KithError.check(
            limit, in: InboxLimits.page, field: "limit",
            "A page holds \(InboxLimits.page.lowerBound) to \(InboxLimits.page.upperBound) notices.")
        var query = [URLQueryItem(name: "limit", value: String(limit))]
        if unreadOnly { query.append(URLQueryItem(name: "unread", value: "true")) }
        if let before { query.append(URLQueryItem(name: "before", value: String(before))) }
        let page: InboxPage = try await authorized(KithAPI.Inbox.list, query: query)
        // Written here from the notices' stored words rather than by the server, so a zone the
        // server's time zone database may lack still reads right.
        return InboxPage(notices: page.notices.map { $0.rendered(in: timeZone) }, unread: page.unread, next: page.next)
    }

    /// Marks these notices read (ids from `inbox`; others' ids change nothing) and returns how many
    /// of the user's notices are still unread. Long lists go in several requests, as the server
    /// takes at most `InboxLimits.idsPerRequest` ids at once. No ids still asks, for the count.
    @discardableResult
    public func markNoticesRead(ids: [String]) async throws -> Int {
        var unread = 0
        var rest = ids[...]
        repeat {
            let chunk = Array(rest.prefix(InboxLimits.idsPerRequest))
            rest = rest.dropFirst(chunk.count)
            let answer: InboxPage = try await authorized(
                KithAPI.Inbox.markRead, body: MarkNoticesReadRequest(ids: chunk))
            unread = answer.unread
        } while !rest.isEmpty
        return unread
    }

    /// Marks every notice of the user read; returns how many are unread now (0, unless one
    /// arrived meanwhile).
    @discardableResult
    public func markAllNoticesRead() async throws -> Int {
        let answer: InboxPage = try await authorized(KithAPI.Inbox.markRead, body: MarkNoticesReadRequest(all: true))
        return answer.unread
    }
}
