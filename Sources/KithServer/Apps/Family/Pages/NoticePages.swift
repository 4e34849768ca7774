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
        let rows = page.notices.map { NoticeListItem($0, snapshot: snapshot, now: now, today: today, zone: zone) }
        let model = FamilyNoticesModel(page, rows: rows, isOlderPage: before != nil, back: back)
        return try await pages.render(model, title: "Notices", context)
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
