import Foundation
import Hummingbird
import KithCore

/// `/v1/inbox` (docs/family.md, "Notices"): the signed-in user's notices, newest first, and
/// marking them read. Each person sees only their own.
struct InboxController {
    let accounts: AccountService
    let inbox: NoticeInbox
    /// The family as it stands, to say what became of each notice's reminder since.
    let reminders: ReminderService

    func addRoutes(to router: Router<AppRequestContext>) {
        router.group().add(middleware: BearerAuthMiddleware(accounts: accounts))
            .on(KithAPI.Inbox.list, use: list)
            .on(KithAPI.Inbox.markRead, use: markRead)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let userID = try context.requireUser().id.lowercased
        let query = request.uri.formQuery
        var limit = InboxLimits.defaultPage
        if let text = query.get("limit") {
            guard let value = Int(text), InboxLimits.page.contains(value) else {
                throw AppError(
                    .badRequest, .badRequest,
                    "limit must be a number from \(InboxLimits.page.lowerBound) to \(InboxLimits.page.upperBound).", field: "limit")
            }
            limit = value
        }
        var before: Int64?
        if let text = query.get("before") {
            guard let value = Int64(text), value > 0 else {
                throw AppError(.badRequest, .badRequest, "before is a notice's seq from an earlier page.", field: "before")
            }
            before = value
        }
        let unreadOnly: Bool
        switch query.get("unread") {
        case nil, "false": unreadOnly = false
        case "true": unreadOnly = true
        default: throw AppError(.badRequest, .badRequest, "unread is true or false.", field: "unread")
        }
        // The reader's zone, when the client names it: every time in the notices is written on it.
        var zone: TimeZone?
        if let name = query.get("timeZone") {
            guard case .success(let valid) = FamilyLimits.checkedTimeZone(name), let found = TimeZone(identifier: valid) else {
                throw AppError(.badRequest, .badRequest, "timeZone is an IANA time zone, such as Europe/Paris.", field: "timeZone")
            }
            zone = found
        }
        var page = try await inbox.page(of: userID, unreadOnly: unreadOnly, before: before, limit: limit, zone: zone)
        if let snapshot = try await familyAsItStands(for: context.requireUser()) {
            for index in page.notices.indices {
                page.notices[index].since = snapshot.aftermath(of: page.notices[index])
            }
        }
        return try JSONResponse.make(page)
    }

    /// Nil for someone who left the family: their notices stay as they were.
    private func familyAsItStands(for user: AuthenticatedUser) async throws -> FamilySnapshot? {
        do {
            return try await reminders.snapshot(for: user)
        } catch let error as AppError where error.detail.code == ErrorCode.notInFamily.rawValue {
            return nil
        }
    }

    @Sendable func markRead(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let userID = try context.requireUser().id.lowercased
        let body = try await request.decodeJSON(MarkNoticesReadRequest.self, context: context)
        guard (body.ids != nil) != (body.all == true) else {
            throw AppError(.unprocessableContent, .validationFailed, "Send either ids or all: true.", field: "ids")
        }
        if let ids = body.ids, ids.count > InboxLimits.idsPerRequest {
            throw AppError(
                .unprocessableContent, .validationFailed, "At most \(InboxLimits.idsPerRequest) ids at once.", field: "ids")
        }
        if let ids = body.ids, ids.contains(where: { UUID(text: $0) == nil }) {
            throw AppError(.unprocessableContent, .validationFailed, "Each id is a notice's id (a UUID).", field: "ids")
        }
        let unread = try await inbox.markReadCountingUnread(body.ids, of: userID)
        return try JSONResponse.make(InboxPage(notices: [], unread: unread, next: nil))
    }
}
