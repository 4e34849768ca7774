import Foundation
import Hummingbird

/// The home page (`/`): signed in, the apps with a line each and where the person stands; signed
/// out, the way to sign in. The help page (`/help`): what each app is for, and how to connect a
/// Monica app or the `kith` command line to this server.
struct HomePages {
    let home: HomeView
    let renderer: WebRenderer
    let session: WebSessionMiddleware
    /// Where people reach this server, for the addresses the help page gives.
    let publicURL: @Sendable () -> String

    func addRoutes(to router: Router<AppRequestContext>) {
        let pages = router.group().add(middleware: session)
        pages.get("/", use: homePage)
        pages.get("help", use: helpPage)
    }

    @Sendable func homePage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .normal) }
        let model = try await home.model(for: user, readerZone: WebTime.readerZone(request)?.zone)
        return try renderer.page(model, title: "Home", context: context)
    }

    @Sendable func helpPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        try renderer.page(HelpModel(serverURL: publicURL()), title: "Help", context: context)
    }
}
