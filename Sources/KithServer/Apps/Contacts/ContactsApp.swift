import Hummingbird

/// The Contacts app on the server: Monica's `/api` (docs/monica.md), a router of its own with its
/// own error shapes, mounted ahead of Kith's error rendering (decision 43); and the /contacts pages
/// (contacts-web.md), whose scripts call `/api` with the session.
struct ContactsApp: ServerApp {
    /// Hands `/api` and `/oauth` to Monica's router.
    let mount: MountMiddleware
    /// Monica's routes ("METHOD /path"), for the server's route table.
    let apiRoutes: [String]
    private let parts: AppParts

    init(_ parts: AppParts) {
        self.parts = parts
        let monica = MonicaServer.router(
            database: parts.database, accounts: parts.accounts, address: parts.address, settings: parts.config.monica,
            clock: parts.clock, ids: parts.ids)
        mount = MountMiddleware(prefixes: MonicaServer.prefixes, responder: monica.router.buildResponder())
        apiRoutes = monica.routes
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        let address = parts.address
        ContactsPages(renderer: parts.renderer, session: parts.session, publicURL: { address.publicURL })
            .addRoutes(to: router)
    }

    var jobHandlers: [any JobHandler] { [] }
}
