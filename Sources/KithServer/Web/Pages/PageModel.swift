import Foundation

/// A page's own values, one struct per template: the template reads them by property name
/// (swift-mustache reflects stored properties; an Optional that is nil is absent, an array is a
/// section per element, a Bool a condition). What every page has besides (title, CSRF token,
/// the signed-in user, the header's current app) `RenderedPage` adds around it, so a template
/// reads the page's own values inside `{{#page}}…{{/page}}`.
protocol PageModel {
    /// The template's name in Templates/, without `.mustache`.
    static var template: String { get }
    /// The app of the header's navigation the page belongs to, marked there as the current one.
    var section: WebSection { get }
    /// What the page loads besides app.js.
    var scripts: PageScripts { get }
}

extension PageModel {
    var scripts: PageScripts { .none }
}

/// The header's navigation: which app a page belongs to.
enum WebSection: Sendable {
    case home, help, contacts, outreach, food, family, account
    /// Signing in or up, a password reset, an error: no app of the header.
    case other
}

/// What a page loads besides app.js: live.js (the live socket its script follows), its own
/// scripts in order, and for scripts that call `/api` with the session, the CSRF token as a meta
/// tag.
struct PageScripts: Sendable {
    var scripts: [String] = []
    var live = false
    var apiClient = false

    static let none = PageScripts()

    /// An app page's script, which follows `/v1/live` with live.js.
    static func live(_ script: String) -> PageScripts { PageScripts(scripts: [script], live: true) }
}
