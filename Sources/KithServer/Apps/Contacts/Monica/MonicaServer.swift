import Foundation
import Hummingbird

/// Limits of the Monica-compatible API.
public struct MonicaSettings: Sendable {
    /// Requests per minute per user on `/api` (Monica's `RATE_LIMIT_PER_MINUTE_API`).
    public var rateLimitPerMinute = 60
    /// Sign-in attempts per minute per client address on `/oauth/login`.
    public var loginAttemptsPerMinute = 5
    /// Bytes of documents and photos one account may keep (Monica's `max_storage_size`, 512 MB).
    public var storagePerAccount: Int64 = 512 * 1_048_576

    public init() {}
}

/// Monica 4.x's REST API under `/api`, and its mobile sign-in at `/oauth/login`, as a router of its
/// own mounted by `MountMiddleware`: its error shapes, authentication, rate limit and "no such
/// route" are its own. Each resource is a folder: record, repository, presenter, routes.
enum MonicaServer {
    static let prefixes = ["/api", "/oauth"]

    /// The router and the routes it serves ("METHOD /path").
    static func router(
        database: KithDatabase, accounts: AccountService, address: ServerAddress, settings: MonicaSettings,
        clock: Clock, ids: IdentifierSource, geocoding: AddressGeocoding
    ) -> (router: Router<AppRequestContext>, routes: [String]) {
        let router = Router(context: AppRequestContext.self)
        let methods = RouteTable()
        router.add(middleware: MonicaErrorMiddleware())
        router.add(middleware: MethodNotAllowedMiddleware(table: methods))
        router.add(middleware: BodyLimitMiddleware(limit: MonicaUploads.bodyLimit(for:)))
        let writeKeys = MonicaWriteKeyRepository(database: database)
        let api = router.group("api")
            .add(middleware: MonicaAuthMiddleware(accounts: accounts))
            .add(
                middleware: MonicaRateLimitMiddleware(
                    limiter: MonicaRateLimiter(limit: settings.rateLimitPerMinute, clock: clock))
            )
            .add(middleware: MonicaIdempotencyMiddleware(keys: writeKeys, clock: clock))
        let monicaAccounts = MonicaAccountRepository(database: database)
        let routes = MonicaRoutes(group: api, accounts: monicaAccounts, address: address, clock: clock)
        let contacts = ContactRepository(database: database, ids: ids, index: ContactIndex(), geocoding: geocoding)
        MeRoutes(accounts: monicaAccounts).addRoutes(to: routes)
        ContactsRoutes(repository: contacts).addRoutes(to: routes)
        VCardsRoutes(repository: contacts).addRoutes(to: routes)
        ContactFieldsRoutes(
            fields: ContactFieldRepository(database: database, ids: ids),
            types: ContactFieldTypeRepository(database: database)
        ).addRoutes(to: routes)
        AddressesRoutes(repository: AddressRepository(database: database, ids: ids, geocoding: geocoding))
            .addRoutes(to: routes)
        TagsRoutes(repository: TagRepository(database: database), contacts: contacts).addRoutes(to: routes)
        GendersRoutes(repository: GenderRepository(database: database)).addRoutes(to: routes)
        NotesRoutes(repository: NoteRepository(database: database, ids: ids)).addRoutes(to: routes)
        CallsRoutes(repository: CallRepository(database: database, ids: ids)).addRoutes(to: routes)
        ConversationsRoutes(repository: ConversationRepository(database: database, ids: ids)).addRoutes(to: routes)
        JournalRoutes(repository: JournalRepository(database: database, ids: ids)).addRoutes(to: routes)
        DebtsRoutes(repository: DebtRepository(database: database, ids: ids)).addRoutes(to: routes)
        PetsRoutes(repository: PetRepository(database: database, ids: ids)).addRoutes(to: routes)
        PlacesRoutes(repository: PlaceRepository(database: database, ids: ids)).addRoutes(to: routes)
        CompaniesRoutes(repository: CompanyRepository(database: database)).addRoutes(to: routes)
        OccupationsRoutes(repository: OccupationRepository(database: database)).addRoutes(to: routes)
        LifeEventsRoutes(repository: LifeEventRepository(database: database, ids: ids)).addRoutes(to: routes)
        let storageLimit = settings.storagePerAccount
        DocumentsRoutes(repository: DocumentRepository(database: database, ids: ids, storageLimit: storageLimit))
            .addRoutes(to: routes)
        PhotosRoutes(repository: PhotoRepository(database: database, ids: ids, storageLimit: storageLimit))
            .addRoutes(to: routes)
        AvatarRoutes(contacts: contacts, storageLimit: storageLimit).addRoutes(to: routes)
        AuditLogsRoutes(repository: AuditLogRepository(database: database)).addRoutes(to: routes)
        TasksRoutes(repository: TaskRepository(database: database, ids: ids)).addRoutes(to: routes)
        ActivitiesRoutes(repository: ActivityRepository(database: database, ids: ids)).addRoutes(to: routes)
        ActivityTypesRoutes(repository: ActivityTypeRepository(database: database)).addRoutes(to: routes)
        GiftsRoutes(repository: GiftRepository(database: database, ids: ids)).addRoutes(to: routes)
        RemindersRoutes(repository: ReminderRepository(database: database, ids: ids)).addRoutes(to: routes)
        RelationshipsRoutes(repository: RelationshipRepository(database: database)).addRoutes(to: routes)
        OAuthLogin(accounts: accounts, limiter: MonicaRateLimiter(limit: settings.loginAttemptsPerMinute, clock: clock))
            .addRoutes(to: router)
        let served = router.routes.map { "\($0.method.rawValue) \($0.path)" }
        methods.load(served)
        return (router, served)
    }
}
