import Hummingbird
import Logging

/// The shared machinery every app of the server is built on, made once by `buildApplication`:
/// storage, the one sync writer, the web pages' clock and renderer, accounts and the job queue.
struct AppParts: Sendable {
    let config: ServerConfig
    let database: KithDatabase
    let sync: SyncRepository
    let writer: SyncWriter
    /// The web pages' and jobs' hybrid logical clock: they write as one more device of the user.
    let stamps: WebClock
    let notifier: any ChangeNotifier
    let accounts: AccountService
    let renderer: WebRenderer
    let session: WebSessionMiddleware
    let jobs: JobQueue
    let address: ServerAddress
    let logger: Logger

    var clock: Clock { config.clock }
    /// Applies the apps' operations for the pages (and every surface that is not a device).
    var operations: OperationWriter { OperationWriter(writer: writer, stamps: stamps, ids: config.ids) }
    var ids: IdentifierSource { config.ids }
}

/// One app of the server (Outreach, Nutrition, Family, Contacts): everything it answers, in its
/// own folder under `Apps/`, and the jobs it runs. `buildApplication` lists the apps and adds each.
protocol ServerApp: Sendable {
    /// Its routes: API controllers and web pages, on the server's router.
    func addRoutes(to router: Router<AppRequestContext>)
    /// The persisted jobs it runs (docs/jobs.md).
    var jobHandlers: [any JobHandler] { get }
}
