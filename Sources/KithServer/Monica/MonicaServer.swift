import Foundation
import Hummingbird

/// Limits of the Monica-compatible API.
public struct MonicaSettings: Sendable {
    /// Requests per minute per user on `/api` (Monica's `RATE_LIMIT_PER_MINUTE_API`).
    public var rateLimitPerMinute = 60
    /// Sign-in attempts per minute per client address on `/oauth/login`.
    public var loginAttemptsPerMinute = 5

    public init() {}
}

/// Mounts the Monica 4.x REST API under `/api`, and its mobile sign-in at `/oauth/login`.
enum MonicaServer {
    static func addRoutes(
        to router: Router<AppRequestContext>, database: KithDatabase, accounts: AccountService, address: ServerAddress,
        settings: MonicaSettings, clock: Clock, ids: IdentifierSource
    ) {
        let group = router.group("api")
            .add(middleware: MonicaAuthMiddleware(accounts: accounts))
            .add(
                middleware: MonicaRateLimitMiddleware(
                    limiter: MonicaRateLimiter(limit: settings.rateLimitPerMinute, clock: clock)))
        let routes = MonicaRoutes(
            group: group, database: database, accounts: MonicaAccounts(database: database),
            searchIndex: ContactSearchIndex(), address: address, clock: clock, ids: ids)
        AccountAPI().addRoutes(to: routes)
        ContactsAPI().addRoutes(to: routes)
        ContactFieldsAPI().addRoutes(to: routes)
        AddressesAPI().addRoutes(to: routes)
        TagsAPI().addRoutes(to: routes)
        GendersAPI().addRoutes(to: routes)
        NotesAPI().addRoutes(to: routes)
        TasksAPI().addRoutes(to: routes)
        ActivitiesAPI().addRoutes(to: routes)
        GiftsAPI().addRoutes(to: routes)
        RemindersAPI().addRoutes(to: routes)
        RelationshipsAPI().addRoutes(to: routes)
        OAuthLogin(accounts: accounts, limiter: MonicaRateLimiter(limit: settings.loginAttemptsPerMinute, clock: clock))
            .addRoutes(to: router)
    }

    /// Whether a path belongs to the Monica API, whose errors have Monica's shapes.
    static func owns(_ path: String) -> Bool {
        path == "/api" || path.hasPrefix("/api/") || path.hasPrefix("/oauth/")
    }

    /// An error outside any `/api` handler (an unknown route, a wrong method) as Laravel answers it.
    static func render(_ error: any Error, path: String) -> Response {
        if let error = error as? HTTPError, error.status == .notFound {
            let route = path.drop { $0 == "/" }
            return MonicaError(.notFound, plain: "The route \(route) could not be found.").response
        }
        return (MonicaError.from(error) ?? MonicaError(.internalServerError, plain: "Server Error")).response
    }
}
