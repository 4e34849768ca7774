import Foundation

/// A Contacts page: a shell its scripts fill from `/api` with the session (so the page carries
/// the CSRF token for their writes); Contacts is the header's current app.
protocol ContactsPageModel: PageModel {
    /// The scripts, shared helpers first (the defer attribute keeps this order).
    static var scriptFiles: [String] { get }
}

extension ContactsPageModel {
    var section: WebSection { .contacts }
    var scripts: PageScripts { PageScripts(scripts: Self.scriptFiles, apiClient: true) }
}
