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
        let page = try await inbox.page(of: user.id.lowercased, before: before)
        // Someone who left the family keeps their notices, read on the UTC clock, with no actions.
        let snapshot: FamilySnapshot?
        do {
            snapshot = try await reminders.snapshot(for: user)
        } catch let error as AppError where error.detail.code == ErrorCode.notInFamily.rawValue {
            snapshot = nil
        }
        let zone = snapshot?.timeZone ?? .gmt
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
        // A before-due notice invites setting the place (seed 003): one tap to the place on the
        // reminder's form, while the occurrence it announced is still ahead.
        if notice.kind.lead != nil, reminder.status == .pending, notice.occurrence == reminder.dueAt, now < reminder.dueAt {
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
