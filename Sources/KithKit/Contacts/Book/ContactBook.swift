import Foundation
import KithCore

/// The Contacts app's data on a device (seeds 004 and 001): a Monica server seen through an
/// offline cache. Reading works without a network (the list, search, a contact's page, the
/// countries); address edits are made here first and sent in order when the server can be
/// reached. Monica has no sync protocol: `sync()` re-reads the contact list through its REST API.
public actor ContactBook {
    public nonisolated let client: MonicaClient
    let cache: ContactCache
    let searchIndex = ContactSearchIndex()
    let now: @Sendable () -> Date
    var replay: Task<AddressReplay, any Error>?

    /// - Parameter cacheURL: the cache's SQLite file (see `cacheURL(in:server:userID:)`); nil keeps it in memory.
    public init(client: MonicaClient, cacheURL: URL?, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.client = client
        self.cache = try ContactCache(url: cacheURL)
        self.now = now
    }

    /// One cache file per server and user, so two accounts never see each other's contacts.
    public static func cacheURL(in directory: URL, server: MonicaServerAddress, userID: Int) -> URL {
        let host = (server.apiURL.host ?? "server").filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
        let port = server.apiURL.port.map { "-\($0)" } ?? ""
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a of the whole address: paths and schemes differ too
        for byte in server.apiURL.absoluteString.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let name = "monica-\(host)\(port)-\(String(hash, radix: 16))-user-\(userID).sqlite"
        return directory.appendingPathComponent(name)
    }

    // MARK: Browsing

    /// A page of contacts, 50 by default: from the server when it answers (and kept for offline
    /// use), else from the cache with the reason.
    public func contacts(page: Int = 1, perPage: Int = 50) async throws -> ContactListPage {
        do {
            let fetched = try await client.contacts(page: page, limit: perPage)
            try cache.saveContacts(
                fetched.items, firstPosition: (fetched.currentPage - 1) * perPage,
                keepingAddressesOf: try cache.contactsWithPendingEdits(), at: now())
            let saved = try cache.contacts(fetched.items.map(\.id))
            return ContactListPage(
                contacts: saved, page: fetched.currentPage, lastPage: fetched.lastPage,
                total: fetched.total ?? saved.count, offlineReason: nil)
        } catch let error as MonicaClientError where Self.canFallBack(error) {
            var cached = try cachedContacts(page: page, perPage: perPage)
            cached.offlineReason = error
            return cached
        }
    }

    /// A page of the cached contacts, in Monica's order.
    public func cachedContacts(page: Int = 1, perPage: Int = 50) throws -> ContactListPage {
        let perPage = max(perPage, 1)
        let (contacts, total) = try cache.contacts(page: page, perPage: perPage)
        return ContactListPage(
            contacts: contacts, page: max(page, 1), lastPage: max((total + perPage - 1) / perPage, 1), total: total,
            offlineReason: nil)
    }

    /// The cached contacts that match `text`, best first: names, nickname, company, job and emails;
    /// "John" finds John, then Johnny, then Jon and Jonathan. Works offline; `sync()` fills the cache.
    public func search(_ text: String, limit: Int = 50) throws -> [MonicaContact] {
        try cache.contacts(try searchIndex.search(text, limit: limit, in: cache))
    }

    /// Reads the cached contacts' search words into memory now (an app calls it at launch), so the
    /// first search is as fast as the next ones. `sync()` does it after refreshing the cache.
    public func prepareSearch() throws { try searchIndex.prepare(cache) }

    /// A contact's whole page, fetched fresh (and cached), or the cached one when the server can't
    /// be reached. A contact the server no longer has is removed from the cache.
    public func details(of id: Int) async throws -> ContactDetails {
        do {
            return try await fetchDetails(of: id)
        } catch MonicaClientError.notFound {
            try cache.removeContact(id)
            throw MonicaClientError.notFound
        } catch let error as MonicaClientError where Self.canFallBack(error) {
            guard var cached = try cachedDetails(of: id) else { throw error }
            cached.offlineReason = error
            return cached
        }
    }

    public func cachedDetails(of id: Int) throws -> ContactDetails? {
        guard let contact = try cache.contact(id) else { return nil }
        guard let (details, fetchedAt) = try cache.details(of: id) else {
            return ContactDetails(
                contact: contact, addresses: contact.addresses, relationships: [], notes: [], tasks: [], activities: [],
                hasMoreActivities: false, gifts: [], reminders: [], fetchedAt: .distantPast, offlineReason: nil)
        }
        return ContactDetails(
            contact: contact, addresses: contact.addresses, relationships: details.relationships, notes: details.notes,
            tasks: details.tasks, activities: details.activities, hasMoreActivities: details.hasMoreActivities,
            gifts: details.gifts, reminders: details.reminders, fetchedAt: fetchedAt, offlineReason: nil)
    }

    private func fetchDetails(of id: Int) async throws -> ContactDetails {
        async let contact = client.contact(id)
        async let relationships = client.relationships(of: id)
        async let notes = client.notes(of: id)
        async let tasks = client.tasks(of: id)
        async let activities = client.activities(of: id, page: 1, limit: Self.activitiesPerPage)
        async let gifts = client.gifts(of: id)
        async let reminders = client.reminders(of: id)
        let fetched = try await contact
        let firstActivities = try await activities
        let details = CachedDetails(
            relationships: try await relationships,
            notes: try await notes.items.sorted { ($0.createdAt ?? .distantPast) > ($1.createdAt ?? .distantPast) },
            tasks: try await tasks.items.sorted(by: MonicaTask.openBeforeDone),
            activities: firstActivities.items.sorted(by: MonicaActivity.newestFirst),
            hasMoreActivities: firstActivities.hasMore, gifts: try await gifts.items,
            reminders: try await reminders.items)
        let fetchedAt = now()
        try cache.saveContacts(
            [fetched], firstPosition: nil, keepingAddressesOf: try cache.contactsWithPendingEdits(), at: fetchedAt)
        try cache.saveDetails(details, of: id, at: fetchedAt)
        guard let result = try cachedDetails(of: id) else { throw MonicaClientError.notFound }
        return result
    }

    /// Activities come 10 at a time (seed 004 story 5).
    public static let activitiesPerPage = 10

    /// The next page of a contact's activities (page 2 onwards), newest first within the page.
    public func moreActivities(of id: Int, page: Int) async throws -> MonicaPage<MonicaActivity> {
        var fetched = try await client.activities(of: id, page: page, limit: Self.activitiesPerPage)
        fetched.items.sort(by: MonicaActivity.newestFirst)
        return fetched
    }

    /// Every country for the address form: cached, fetched when the cache has none, and, offline
    /// with nothing cached, the ISO list this SDK carries.
    public func countries() async throws -> [MonicaCountry] {
        let cached = try cache.countries()
        if !cached.isEmpty { return cached }
        do {
            let fetched = try await client.countries()
            try cache.saveCountries(fetched)
            return fetched
        } catch let error as MonicaClientError where Self.canFallBack(error) {
            return ISOCountries.sortedByName.map { MonicaCountry(id: $0.code, name: $0.name) }
        }
    }

    // MARK: Sync

    /// Sends the queued address edits, then re-reads every contact (100 a page) and the countries.
    /// Contacts deleted on the server leave the cache. Throws when the server can't be reached;
    /// nothing cached is lost then.
    @discardableResult
    public func sync() async throws -> ContactSyncSummary {
        let replay = try await sendPendingAddressEdits()
        if let stopped = replay.stoppedBy { throw stopped }
        let contacts = try await client.allContacts().allItems()
        let countries = try await client.countries()
        try cache.replaceContacts(contacts, keepingAddressesOf: try cache.contactsWithPendingEdits(), at: now())
        try cache.saveCountries(countries)
        try prepareSearch()
        return ContactSyncSummary(
            contacts: contacts.count, countries: countries.count, addressEditsSent: replay.sent,
            addressEditsRefused: replay.refused)
    }

    /// When the cache last held the server's whole list.
    public func lastSync() throws -> Date? { try cache.lastSync() }

    /// Settings' "Clear Cache": forgets every cached contact and country. Queued address edits are
    /// kept (clearing must not lose a change); they are sent on the next sync.
    public func clearCache() throws { try cache.clear() }

    /// Errors after which the cache is the best answer: the server can't be reached or can't
    /// answer now. A refused token or a refused request is never hidden behind the cache.
    static func canFallBack(_ error: MonicaClientError) -> Bool {
        switch error {
        case .offline, .timeout, .serverTrouble, .rateLimited: true
        default: false
        }
    }
}
