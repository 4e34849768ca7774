import Foundation
import KithCore

/// /family/notices (family-notices.mustache): the reader's notices, newest first, 20 a page.
struct FamilyNoticesModel: FamilyPageModel {
    static let template = "family-notices"

    let notices: [NoticeListItem]
    let hasNotices: Bool
    let anyUnread: Bool
    /// "3 unread".
    let unreadText: String
    let isOlderPage: Bool
    /// The older page's address, when there is one.
    let older: String?
    /// Where the forms go back to: this page.
    let back: String

    init(_ page: InboxPage, rows: [NoticeListItem], isOlderPage: Bool, back: String) {
        notices = rows
        hasNotices = !rows.isEmpty
        anyUnread = page.unread > 0
        unreadText = page.unread == 1 ? "1 unread" : "\(page.unread) unread"
        self.isOlderPage = isOlderPage
        older = page.next.map { "/family/notices?before=\($0)" }
        self.back = back
    }
}
