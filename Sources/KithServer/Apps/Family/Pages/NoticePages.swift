import Foundation
import Hummingbird
import KithCore

/// /family/notices: the notices the server delivered to the signed-in person (due, before due,
/// snoozed, completions, movements), newest first, unread ones marked, 20 a page going back with
/// `?before=`; marking read is a CSRF-checked form. A due or snoozed notice about the reminder as
/// it stands offers its snooze. family.js shows new ones live on every Family page.
struct NoticePages {
    let inbox: NoticeInbox
    let reminders: ReminderService
    let pages: FamilyPageRenderer
    let session: WebSessionMiddleware

    func addRoutes(to router: Router<AppRequestContext>) {
        let group = router.group("family/notices").add(middleware: session)
        group.get(use: noticesPage)
        group.post("read", use: markRead)
    }

    @Sendable func noticesPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let query = request.uri.formQuery
        let before = query.get("before").flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil }
        // Someone who left the family keeps their notices, with no actions.
        let snapshot: FamilySnapshot?
        do {
            snapshot = try await reminders.snapshot(for: user)
        } catch let error as AppError where error.detail.code == ErrorCode.notInFamily.rawValue {
            snapshot = nil
        }
        // Every time on the page, in the notices' words too, on the reader's clock (the browser's
        // zone); before the browser said it, the family's, else UTC.
        let zone = WebTime.readerZone(request)?.zone ?? snapshot?.timeZone ?? .gmt
        let page = try await inbox.page(of: user.id.lowercased, before: before, zone: zone)
        let now = reminders.now()
        let today = LocalDate(now, in: zone)
        let back = request.uri.description
        let notices = page.notices.map { notice in
            Self.row(notice, snapshot: snapshot, now: now, today: today, zone: zone)
        }
        var values: [String: Any] = [
            "notices": notices, "hasNotices": !notices.isEmpty, "anyUnread": page.unread > 0,
            "unreadText": page.unread == 1 ? "1 unread" : "\(page.unread) unread", "isOlderPage": before != nil,
            "back": back,
        ]
        if let next = page.next { values["older"] = "/family/notices?before=\(next)" }
        return try await pages.render("family-notices", title: "Notices", context, values: values)
    }

    /// One notice as the page lists it.
    static func row(_ notice: NoticeDTO, snapshot: FamilySnapshot?, now: Date, today: LocalDate, zone: TimeZone)
        -> [String: Any]
    {
        var row: [String: Any] = [
            "id": notice.id, "title": notice.title, "body": notice.body, "kind": notice.kind.rawValue,
            "delivered": FamilyFormat.moment(notice.deliveredAt, in: zone, today: today),
            "deliveredISO": WireCoding.formatTimestamp(notice.deliveredAt),
            "isUnread": notice.readAt == nil,
        ]
        if notice.late {
            row["late"] =
                "Late: meant for \(FamilyFormat.timeAndDay(notice.dueAt, in: zone, today: today)), delivered when the server was back."
        }
        guard let snapshot, let id = UUID(text: notice.reminderId), let reminder = snapshot.reminder(id) else {
            return row
        }
        row["reminderLink"] = "/family/reminders/\(reminder.id.lowercased)"
        // Only the notice about the reminder's current due time (or current snooze) may snooze it.
        let current =
            (notice.kind == .due && notice.occurrence == reminder.dueAt)
            || (notice.kind == .snoozed && notice.occurrence == reminder.snoozedUntil)
        if current, let snooze = ReminderSnoozeView.values(reminder, snapshot, now: now, today: today) {
            row["snooze"] = snooze
            row["reminderId"] = reminder.id.lowercased
        }
        // A before-due notice invites setting the place: one tap to the place on the reminder's
        // form, while the occurrence it announced is still ahead. The due notice of a reminder that
        // uses a place asks for where the person is now, while that occurrence is current.
        let invites = notice.kind.lead != nil && now < reminder.dueAt
        let asks = notice.kind == .due && reminder.location != nil
        if invites || asks, reminder.status == .pending, notice.occurrence == reminder.dueAt {
            row["place"] = [
                "link": "/family/reminders/\(reminder.id.lowercased)/edit#place-card",
                "label": reminder.location == nil ? "Set the place" : "Change the place",
            ]
        }
        return row
    }

    /// `id`: that notice; `all`: every one. Back to where the form was.
    @Sendable func markRead(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        let all = form["all"] == "1"
        guard all || !form["id"].isEmpty else {
            throw AppError(.unprocessableContent, .validationFailed, "Choose a notice, or all of them.", field: "id")
        }
        try await inbox.markRead(all ? nil : [form["id"]], of: user.id.lowercased)
        return FamilyPageRenderer.back(form)
    }
}
