import Foundation
import KithCore

/// How the inbox reads in a terminal, on the person's clock (`TZ`): one line a notice,
/// "* Tue 2026-11-24 13:02  due         Feed the cat · Due now (13:02).", then the unread count.
enum InboxText {
    static func page(_ page: InboxPage, unreadOnly: Bool, in zone: TimeZone) -> String {
        guard !page.notices.isEmpty else { return unreadOnly ? "No unread notices." : "No notices." }
        var lines = page.notices.map { notice($0, in: zone) }
        if page.next != nil { lines.append("(older notices not shown: raise --limit)") }
        lines.append("\(page.unread) unread.")
        return lines.joined(separator: "\n")
    }

    static func notice(_ notice: NoticeDTO, in zone: TimeZone) -> String {
        let unread = notice.readAt == nil ? "*" : " "
        let kind = notice.kind.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
        let late = notice.late ? "  · late, arrived \(FamilyText.when(notice.deliveredAt, in: zone))" : ""
        let since = notice.since.map { "  · \($0.words)" } ?? ""
        return
            "\(unread) \(FamilyText.when(notice.dueAt, in: zone))  \(kind)  \(notice.title) · \(notice.body)\(late)\(since)"
    }

    /// The longest kind's name, so titles line up.
    private static let width = NoticeKind.allCases.map(\.rawValue.count).max() ?? 0
}
