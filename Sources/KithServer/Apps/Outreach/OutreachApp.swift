import Hummingbird

/// The Outreach app on the server (docs/outreach.md): its web pages; sync needs nothing of its own.
struct OutreachApp: ServerApp {
    let service: OutreachService
    private let parts: AppParts

    init(_ parts: AppParts) {
        self.parts = parts
        service = OutreachService(repository: parts.sync, operations: parts.operations, clock: parts.clock)
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        OutreachPages(outreach: service, operations: parts.operations, renderer: parts.renderer, session: parts.session).addRoutes(to: router)
    }

    var jobHandlers: [any JobHandler] { [] }
}
