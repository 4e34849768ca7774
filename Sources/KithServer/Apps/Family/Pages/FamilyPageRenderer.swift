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
        _ template: String, title: String, _ context: AppRequestContext, status: HTTPResponse.Status = .ok,
        values: [String: Any]
    ) async throws -> Response {
        var values = values
        values["pageScript"] = "family.js"
        values["live"] = true
        if let user = context.user {
            let unread = try await inbox.unreadCount(of: user.id.lowercased)
            values["unreadNotices"] = ["count": unread, "any": unread > 0] as [String: Any]
        }
        return try renderer.page(
            template, title: title, context: context, status: status, values: values, section: .family)
    }

    /// The IANA zones `FamilyLimits` accepts, sorted.
    static let timeZones: [String] = TimeZone.knownTimeZoneIdentifiers
        .filter { if case .success = FamilyLimits.checkedTimeZone($0) { true } else { false } }
        .sorted()

    /// The zone choices with `selected` chosen (added when the list lacks it, such as "UTC").
    static func zoneOptions(selected: String) -> [[String: Any]] {
        let names = timeZones.contains(selected) || selected.isEmpty ? timeZones : [selected] + timeZones
        return names.map { ["name": $0, "selected": $0 == selected] as [String: Any] }
    }

    /// A form's `back` when it is one of the Family pages, else /family: where to go after it.
    static func back(_ form: WebForm) -> Response {
        let back = form["back"]
        let safe = back.hasPrefix("/family") && !back.contains("//") && !back.contains("\\")
        return .redirect(to: safe ? back : "/family", type: .found)
    }

    static func id(_ context: AppRequestContext, _ name: String = "id", what: String) throws -> UUID {
        guard let id = UUID(text: context.parameters.get(name) ?? "") else { throw AppError.notFound(what) }
        return id
    }
}
