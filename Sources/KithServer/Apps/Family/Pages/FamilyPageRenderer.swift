import Foundation
import Hummingbird
import KithCore

/// What every Family page shares: family.js (after app.js and live.js, which it follows
/// `/v1/live` with), the reader's unread notices next to the header's Family link, the time zones
/// a family may choose, and the way back after a form.
struct FamilyPageRenderer: Sendable {
    let renderer: WebRenderer
    let inbox: NoticeInbox

    func render(
        _ model: some FamilyPageModel, title: String, _ context: AppRequestContext, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        var unread: UnreadNotices?
        if let user = context.user { unread = UnreadNotices(try await inbox.unreadCount(of: user.id.lowercased)) }
        return try renderer.page(model, title: title, context: context, status: status, unreadNotices: unread)
    }

    /// The IANA zones `FamilyLimits` accepts, sorted.
    static let timeZones: [String] = TimeZone.knownTimeZoneIdentifiers
        .filter { if case .success = FamilyLimits.checkedTimeZone($0) { true } else { false } }
        .sorted()

    /// A form's `back` when it is one of the Family pages, else /family: where to go after it.
    static func back(_ form: WebForm) -> Response {
        .redirect(to: backAddress(form), type: .found)
    }

    /// Where the form asks to go back to, when it is a Family page; else /family.
    static func backAddress(_ form: WebForm) -> String {
        let back = form["back"]
        let safe = back.hasPrefix("/family") && !back.contains("//") && !back.contains("\\")
        return safe ? back : "/family"
    }

    static func id(_ context: AppRequestContext, _ name: String = "id", what: String) throws -> UUID {
        guard let id = UUID(text: context.parameters.get(name) ?? "") else { throw AppError.notFound(what) }
        return id
    }
}
