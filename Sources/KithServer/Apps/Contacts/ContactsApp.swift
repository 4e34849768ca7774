import AsyncHTTPClient
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
    private let contacts: ContactRepository
    private let geocoding: AddressGeocoding

    init(_ parts: AppParts) {
        self.parts = parts
        geocoding = AddressGeocoding(settings: parts.config.geocoder, ids: parts.ids, wake: parts.jobs.wake)
        let monica = MonicaServer.router(
            database: parts.database, accounts: parts.accounts, address: parts.address, settings: parts.config.monica,
            clock: parts.clock, ids: parts.ids, geocoding: geocoding)
        mount = MountMiddleware(prefixes: MonicaServer.prefixes, responder: monica.router.buildResponder())
        apiRoutes = monica.routes
        contacts = ContactRepository(
            database: parts.database, ids: parts.ids, index: ContactIndex(), geocoding: geocoding)
    }

    /// The account page's choice of the gifts' currency.
    var giftCurrency: GiftCurrencySetting {
        GiftCurrencySetting(accounts: MonicaAccountRepository(database: parts.database), clock: parts.clock)
    }

    /// The account's contacts as one CardDAV address book (docs/dav.md).
    func addressBooks(for user: AuthenticatedUser) async throws -> [any DAVCollection] {
        let account = try await MonicaAccountRepository(database: parts.database)
            .account(userID: user.id.lowercased, now: parts.clock.nowMillis)
        return [
            ContactsAddressBook(
                user: user, account: account, database: parts.database, contacts: contacts, clock: parts.clock)
        ]
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        let address = parts.address
        ContactsPages(renderer: parts.renderer, session: parts.session, publicURL: { address.publicURL })
            .addRoutes(to: router)
    }

    /// Locating addresses from their text, when a geocoder is configured.
    var jobHandlers: [any JobHandler] {
        guard let settings = parts.config.geocoder else { return [] }
        let config = parts.config
        return [
            GeocodeJob(
                database: parts.database, cache: GeocodeCache(database: parts.database),
                pace: GeocoderPace(database: parts.database, interval: settings.interval),
                lookup: NominatimLookup(
                    settings: settings, client: .shared,
                    userAgent: FoodSearchSettings.userAgent(publicURL: config.publicURL, mailFrom: config.mailFrom)),
                clock: parts.clock)
        ]
    }
}
