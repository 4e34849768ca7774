import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// A built server: the Hummingbird application plus what tests and the command line look into.
public struct KithServerApp: Sendable {
    public let application: Application<RouterResponder<AppRequestContext>>
    public let database: KithDatabase
    /// Every route the server answers (API router and WebSocket router) as "METHOD /path", for the OpenAPI test.
    public let routes: [String]
    let liveHub: LiveHub
    /// How the pages (and tests) apply an app's operations.
    let operations: OperationWriter
    /// What wakes the job runner, and its passes over the queue: tests wait for a pass instead of
    /// pausing to prove a job did not run.
    let jobWake: JobWakeSignal
    let jobPasses: JobRunnerPasses
    /// Held as long as the server (or a test holding it) lives; see `DataDirectoryLock`.
    let dataLock: DataDirectoryLock?

    /// How many live sockets (`/v1/live`) are authenticated and subscribed right now.
    public var openLiveSockets: Int { liveHub.socketCount }
}

/// Builds the whole server from a configuration: storage (migrated), mail, routes, middleware.
/// `onServerRunning` receives the bound port once the server listens (useful with port 0).
public func buildApplication(
    _ config: ServerConfig, logger givenLogger: Logger? = nil,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> KithServerApp {
    try config.validate()
    var logger = givenLogger ?? Logger(label: "kith") { KithLogHandler(label: $0) }
    if givenLogger == nil { logger.logLevel = config.logLevel }
    _ = PrometheusMetrics.registry

    // Everything that can fail on bad configuration comes before storage is opened.
    let mailer = try makeMailer(config, logger: logger)
    let renderer = try await WebRenderer.load(mapTiles: config.mapTiles)
    let shell = try WebRenderer.staticDirectory.map(WebAppShell.init(staticDirectory:))
    // One server per SQLite file: a second one (or `kith restore`) is refused while this one runs.
    let dataLock: DataDirectoryLock?
    if case .sqlite(let path) = config.databaseLocation {
        dataLock = try DataDirectoryLock(databasePath: path)
    } else {
        dataLock = nil
    }
    let database = try await KithDatabase.open(
        config.databaseLocation, logger: logger, clock: config.clock, preparedStatements: config.databasePreparedStatements,
        connectionsPerEventLoop: config.databaseConnectionsPerCore)
    let address = ServerAddress(configured: config.publicURL, host: config.host)
    let jobWake = JobWakeSignal()
    let jobPasses = JobRunnerPasses()
    let jobRepository = JobRepository(database: database, ids: config.ids)
    let jobs = JobQueue(repository: jobRepository, clock: config.clock, wake: jobWake)
    let syncRepository = SyncRepository(database: database)
    let syncRules = SyncRules(catalog: config.entities, directory: FamilyScopeDirectory(database: database))
    let liveHub = LiveHub()
    var services: [any Service] = [DatabaseLifecycle(database: database, lock: dataLock)]
    let changeNotifier: any ChangeNotifier
    switch config.databaseLocation {
    case .sqlite:
        changeNotifier = LocalChangeNotifier(hub: liveHub)
    case .postgres(let url):
        changeNotifier = PostgresChangeNotifier(database: database, hub: liveHub, logger: logger)
        let listener: PostgresChangeListener
        do {
            listener = PostgresChangeListener(
                configuration: try KithDatabase.postgresConfiguration(url: config.databaseListenURL ?? url).coreConfiguration,
                hub: liveHub,
                repository: syncRepository, firstRetryDelay: config.live.listenRetryDelay, logger: logger)
        } catch {
            // Storage is open: close it, or its connection pool traps when it is released.
            await database.close()
            throw error
        }
        // Listed after the database so it stops first on shutdown (services stop in reverse order).
        services.append(listener)
    }
    var writer = SyncWriter(repository: syncRepository, rules: syncRules, clock: config.clock, notifier: changeNotifier)
    writer.hooks = FamilyApp.writeHooks(config)
    // The web pages and the server's own jobs write as one more device: one HLC node per process.
    let webClock = WebClock(wall: config.clock, ids: config.ids)
    let families = FamilyApp.families(
        database: database, sync: syncRepository, writer: writer, stamps: webClock, config: config)
    let accountRepository = AccountRepository(database: database, ids: config.ids)
    let accounts = AccountService(
        repository: accountRepository,
        hasher: PasswordHasher(cost: config.accounts.bcryptCost),
        jobs: jobs,
        settings: config.accounts,
        clock: config.clock,
        ids: config.ids,
        publicURL: { address.publicURL },
        mailFrom: config.mailFrom,
        // A person leaves their family before their account goes (refused for the last parent).
        beforeDeletingAccount: { try await families.leaveBeforeAccountDeletion(userID: $0) },
        logger: logger)
    let session = WebSessionMiddleware(accounts: accounts, renderer: renderer, secureCookies: address.isHTTPS)
    let parts = AppParts(
        config: config, database: database, sync: syncRepository, writer: writer, stamps: webClock,
        notifier: changeNotifier, accounts: accounts, renderer: renderer, session: session, jobs: jobs,
        address: address, logger: logger)

    // The apps, each from its folder under Apps/.
    let outreach = OutreachApp(parts)
    let nutrition = NutritionApp(parts)
    let push = WebPush(parts)
    let family = FamilyApp(parts, families: families, noticeChannels: [push.familyNotices])
    let contacts = ContactsApp(parts)
    let apps: [any ServerApp] = [outreach, nutrition, family, contacts]

    let router = Router(context: AppRequestContext.self)
    router.add(middleware: RequestIDMiddleware())
    if address.isHTTPS { router.add(middleware: StrictTransportSecurityMiddleware()) }
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: contacts.mount)
    let dav = DAVServer(
        accounts: accounts,
        homes: DAVHomes(addressBooks: contacts.addressBooks(for:), calendars: family.calendars(for:)),
        store: DAVItemStore(database: database), logger: logger)
    router.add(middleware: MountMiddleware(prefixes: DAVServer.prefixes, responder: dav))
    router.add(middleware: ErrorMiddleware(renderer: renderer, session: session))
    let routeTable = RouteTable()
    router.add(middleware: MethodNotAllowedMiddleware(table: routeTable))
    router.add(middleware: BodyLimitMiddleware())
    if let staticDirectory = WebRenderer.staticDirectory {
        router.add(
            middleware: FileMiddleware(
                staticDirectory, urlBasePath: "/static",
                cacheControl: .init([(MediaType(type: .any), [.maxAge(3600)])]),
                logger: logger))
    }

    OperationsController(database: database, metricsToken: config.metricsToken).addRoutes(to: router)
    AuthController(accounts: accounts).addRoutes(to: router)
    TokenController(accounts: accounts).addRoutes(to: router)
    SyncController(accounts: accounts, writer: writer).addRoutes(to: router)
    let liveSockets = LiveSockets()
    let live = LiveController(
        services: LiveServices(
            accounts: accounts, rules: syncRules, hub: liveHub, settings: config.live,
            notices: NoticeFeed(database: database),
            sockets: liveSockets, logger: logger))
    live.addRoutes(to: router)
    AccountPages(
        accounts: accounts, renderer: renderer, session: session, devices: push.devices,
        giftCurrency: contacts.giftCurrency,
        deletionBlocker: { try await families.accountDeletionBlocker(userID: $0) }
    ).addRoutes(to: router)
    push.addRoutes(to: router)
    shell?.addRoutes(to: router)
    for app in apps { app.addRoutes(to: router) }
    HomePages(
        home: HomeView(
            outreach: outreach.service, nutrition: nutrition.service, reminders: family.reminders, inbox: family.inbox),
        renderer: renderer,
        session: session, publicURL: { address.publicURL }
    ).addRoutes(to: router)

    let jobHandlers: [any JobHandler] =
        [
            PasswordResetMailJob(
                accounts: accountRepository, mailer: mailer, settings: config.accounts, clock: config.clock,
                publicURL: { address.publicURL }, mailFrom: config.mailFrom),
            ExpiredSessionsJob(accounts: accountRepository, queue: jobs, clock: config.clock, logger: logger),
            ExpiredWriteKeysJob(database: database, queue: jobs, clock: config.clock, logger: logger),
        ] + push.jobHandlers + apps.flatMap(\.jobHandlers)
    do {
        // Listed last, so on shutdown it stops first: a job in progress finishes while storage is open.
        services.append(
            try JobRunner(
                repository: jobRepository, handlers: jobHandlers + config.jobs.additionalHandlers,
                settings: config.jobs, clock: config.clock, ids: config.ids, wake: jobWake, passes: jobPasses,
                logger: logger))
    } catch {
        await database.close()
        throw error
    }

    // GET /v1/live is among them: upgraded by the connection (GuardedHTTPChannel), 426 if plain.
    let routes = router.routes.map { "\($0.method.rawValue) \($0.path)" } + contacts.apiRoutes
    routeTable.load(routes)
    // Listed last, so on shutdown it stops first, right after the HTTP server: live sockets run
    // on their channels, not in tasks the server waits for.
    services.append(liveSockets)
    let application = Application(
        router: router,
        server: .guardedHTTP1(live: live, settings: config.connections),
        configuration: .init(
            address: .hostname(config.host, port: config.port), serverName: "kith",
            availableConnectionsDelegate: CountedConnections(maximum: config.connections.maximumConnections)),
        services: services,
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? config.port
            address.bound(port: port)
            await onServerRunning(port)
        },
        logger: logger)
    return KithServerApp(
        application: application, database: database, routes: routes, liveHub: liveHub, operations: parts.operations,
        jobWake: jobWake, jobPasses: jobPasses, dataLock: dataLock)
}

/// Closes storage once the HTTP server has drained, on graceful shutdown; only then may another
/// server (or a restore) take the data directory.
private struct DatabaseLifecycle: Service {
    let database: KithDatabase
    let lock: DataDirectoryLock?

    func run() async throws {
        try? await gracefulShutdown()
        await database.close()
        withExtendedLifetime(lock) {}
    }
}

/// The public base URL for links in mail: the configured one, else where the server actually listens.
final class ServerAddress: Sendable {
    private let configured: String?
    private let host: String
    private let port = Mutex<Int?>(nil)

    init(configured: String?, host: String) {
        self.configured = configured.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.host = host
    }

    func bound(port: Int) { self.port.withLock { $0 = port } }

    var isHTTPS: Bool { configured?.lowercased().hasPrefix("https://") ?? false }

    var publicURL: String {
        if let configured { return configured }
        let port = self.port.withLock { $0 } ?? 8080
        let shownHost = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        return "http://\(shownHost):\(port)"
    }
}
