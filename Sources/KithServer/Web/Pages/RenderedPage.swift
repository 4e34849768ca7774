import Foundation

/// What a template renders: the keys every page has (the head and foot partials read them) and
/// the page's own model under `page`.
struct RenderedPage<Model: PageModel> {
    let title: String
    let csrf: String
    let user: SignedInUser?
    let section: SectionMarks
    let live: Bool
    let apiClient: Bool
    let pageScript: [String]
    /// The reader's unread notices, next to the header's Family link (Family pages only).
    let unreadNotices: UnreadNotices?
    let page: Model

    init(_ page: Model, title: String, context: AppRequestContext, unreadNotices: UnreadNotices?) {
        self.title = title
        csrf = context.csrfToken ?? ""
        user = context.user.map { SignedInUser(email: $0.email, account: OfflineAccount.mark(of: $0.id)) }
        section = SectionMarks(page.section)
        live = page.scripts.live
        apiClient = page.scripts.apiClient
        pageScript = page.scripts.scripts
        self.unreadNotices = unreadNotices
        self.page = page
    }
}

/// The header's "signed in as".
struct SignedInUser {
    let email: String
    /// `OfflineAccount.mark`: whose pages and waiting changes this browser keeps.
    let account: String
}

/// The header's links, the current page's app marked (`{{#section.food}}`).
struct SectionMarks {
    let home: Bool
    let help: Bool
    let contacts: Bool
    let outreach: Bool
    let food: Bool
    let family: Bool
    let account: Bool

    init(_ current: WebSection) {
        home = current == .home
        help = current == .help
        contacts = current == .contacts
        outreach = current == .outreach
        food = current == .food
        family = current == .family
        account = current == .account
    }
}

/// How many notices the reader has not read; `any` shows the count.
struct UnreadNotices {
    let count: Int
    let any: Bool

    init(_ count: Int) {
        self.count = count
        any = count > 0
    }
}
