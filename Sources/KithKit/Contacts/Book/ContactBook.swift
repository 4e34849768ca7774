import Foundation
import GRDB
import KithCore
import Observation

/// The Contacts app's data on a device (seeds 004 and 001): a Monica server seen through an
/// offline cache. Reading works without a network (the list, search, a contact's page, the
/// countries); address edits are made here first and sent in order when the server can be
/// reached. Monica has no sync protocol: `sync()` re-reads the contact list through its REST API.
///
/// A SwiftUI view binds to it directly: `list`, `searchResults`, `selectedContact`, `pendingEdits`,
/// `refusedEdits`, `offlineReason` and `syncedAt` are observable, set by the reads that produce them
/// and kept current after every change this book makes to its cache (address edits queued and
/// sent, a sync, a contact fetched).
@MainActor
@Observable
public final class ContactBook {
    /// The page of the contact list last read (`contacts(page:perPage:)` or `cachedContacts`).
    public private(set) var list: ContactListPage?
    /// What `search(_:limit:)` last looked for, and its matches, best first.
    public private(set) var searchQuery = ""
    public private(set) var searchResults: [MonicaContact] = []
    /// The contact whose page was last read (`details(of:)` or `cachedDetails(of:)`); nil once it
    /// is no longer cached (the server deleted it, the cache was cleared).
    public private(set) var selectedContact: ContactDetails?
    /// Address edits made on this device and not yet on the server, oldest first.
    public private(set) var pendingEdits: [PendingAddressEdit] = []
    /// Address edits the server refused, until `dismissRefusedAddressEdits()`.
    public private(set) var refusedEdits: [FailedAddressEdit] = []
    /// Why the last read from the server (a list page, a contact's page, a sync) was answered from
    /// the cache or not at all: offline, a timeout, Monica in trouble or rate limiting; nil when it
    /// was fresh.
    public private(set) var offlineReason: MonicaClientError?
    /// When the cache last held the server's whole list.
    public private(set) var syncedAt: Date?
    /// Why the state could not be read from the cache last time (the device's storage failed), or nil.
    public private(set) var readError: MonicaClientError?

    public nonisolated let client: MonicaClient
    nonisolated let cache: ContactCache
    nonisolated let searchIndex = ContactSearchIndex()
    nonisolated let now: @Sendable () -> Date
    @ObservationIgnored var replay: Task<AddressReplay, any Error>?
    @ObservationIgnored let refresher = StateRefresher()
    /// What the observable state was read for: the latest list page asked for and the shown list's
    /// page size, the search's limit, the contact asked for last.
    @ObservationIgnored private var listRequest: (page: Int, perPage: Int)?
    @ObservationIgnored private var listPerPage = 50
    @ObservationIgnored private var searchLimit = 50
    @ObservationIgnored private var selectedID: Int?

    /// - Parameter cacheURL: the cache's SQLite file (see `cacheURL(in:server:userID:)`); nil keeps it in memory.
    public init(client: MonicaClient, cacheURL: URL?, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.client = client
        self.cache = try ContactCache(url: cacheURL)
        self.now = now
        refresher.follow(cache.writer, region: [DatabaseRegion.fullDatabase]) { [weak self] in self?.readState() }
    }

    /// One cache file per server and user, so two accounts never see each other's contacts.
    public nonisolated static func cacheURL(in directory: URL, server: MonicaServerAddress, userID: Int) -> URL {
        let host = (server.apiURL.host ?? "server").filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
        let port = server.apiURL.port.map { "-\($0)" } ?? ""
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a of the whole address: paths and schemes differ too
        for byte in server.apiURL.absoluteString.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let name = "monica-\(host)\(port)-\(String(hash, radix: 16))-user-\(userID).sqlite"
        return directory.appendingPathComponent(name)
    }

    // MARK: Browsing

    /// A page of contacts, 50 by default: from the server when it answers (and kept for offline
    /// use), else from the cache with the reason. It becomes `list`.
    public func contacts(page: Int = 1, perPage: Int = 50) async throws -> ContactListPage {
        listRequest = (page, perPage)
        let result: ContactListPage
        do {
            let fetched = try await client.contacts(page: page, limit: perPage)
            try cache.saveContacts(
                fetched.items, firstPosition: (fetched.currentPage - 1) * perPage,
                keepingAddressesOf: try cache.contactsWithPendingEdits(), at: now())
            let saved = try cache.contacts(fetched.items.map(\.id))
            result = ContactListPage(
                contacts: saved, page: fetched.currentPage, lastPage: fetched.lastPage,
                total: fetched.total ?? saved.count, offlineReason: nil)
        } catch let error as MonicaClientError where error.isRetryable {
            result = try Self.cachedPage(page: page, perPage: perPage, in: cache, offlineReason: error)
        }
        if listRequest.map({ $0 == (page, perPage) }) == true {
            list = result
            listPerPage = perPage
            offlineReason = result.offlineReason
        }
        return result
    }

    /// A page of the cached contacts, in Monica's order. It becomes `list`.
    public func cachedContacts(page: Int = 1, perPage: Int = 50) throws -> ContactListPage {
        let result = try Self.cachedPage(page: page, perPage: perPage, in: cache, offlineReason: nil)
        listRequest = (page, perPage)
        list = result
        listPerPage = perPage
        return result
    }

    /// The cached contacts that match `text`, best first: names, nickname, company, job and emails;
    /// "John" finds John, then Johnny, then Jon and Jonathan. Works offline; `sync()` fills the cache.
    /// They become `searchResults`.
    public func search(_ text: String, limit: Int = 50) throws -> [MonicaContact] {
        let found = try cache.contacts(try searchIndex.search(text, limit: limit, in: cache))
        searchQuery = text
        searchLimit = limit
        searchResults = found
        return found
    }

    /// Reads the cached contacts' search words into memory now, away from the main actor (an app
    /// calls it at launch), so the first search is as fast as the next ones. `sync()` does it after
    /// refreshing the cache.
    public func prepareSearch() async throws {
        let (cache, index) = (self.cache, searchIndex)
        try await Self.awayFromMain { try index.prepare(cache) }
    }

    /// A contact's whole page, fetched fresh (and cached), or the cached one when the server can't
    /// be reached. A contact the server no longer has is removed from the cache. It becomes
    /// `selectedContact`.
    public func details(of id: Int) async throws -> ContactDetails {
        selectedID = id
        let result: ContactDetails
        do {
            result = try await fetchDetails(of: id)
        } catch MonicaClientError.notFound {
            try cache.removeContact(id)
            refresher.refresh()
            throw MonicaClientError.notFound
        } catch let error as MonicaClientError where error.isRetryable {
            guard var cached = try Self.cachedDetails(of: id, in: cache) else {
                if selectedID == id { offlineReason = error }
                throw error
            }
            cached.offlineReason = error
            result = cached
        }
        if selectedID == id {
            selectedContact = result
            offlineReason = result.offlineReason
        }
        return result
    }

    /// A contact's page as the cache has it, or nil. It becomes `selectedContact`.
    public func cachedDetails(of id: Int) throws -> ContactDetails? {
        let result = try Self.cachedDetails(of: id, in: cache)
        selectedID = id
        selectedContact = result
        return result
    }

    nonisolated static func cachedDetails(of id: Int, in cache: ContactCache) throws -> ContactDetails? {
        guard let contact = try cache.contact(id) else { return nil }
        guard let (details, fetchedAt) = try cache.details(of: id) else {
            return ContactDetails(
                contact: contact, addresses: contact.addresses, relationships: [], notes: [], tasks: [], activities: [],
                hasMoreActivities: false, gifts: [], reminders: [], fetchedAt: .distantPast, offlineReason: nil)
        }
        return ContactDetails(
            contact: contact, addresses: contact.addresses, relationships: details.relationships, notes: details.notes,
            tasks: details.tasks, activities: details.activities, hasMoreActivities: details.hasMoreActivities,
            gifts: details.gifts, reminders: details.reminders, calls: details.calls ?? [], debts: details.debts ?? [],
            pets: details.pets ?? [], lifeEvents: details.lifeEvents ?? [], conversations: details.conversations ?? [],
            fetchedAt: fetchedAt, offlineReason: nil)
    }

    nonisolated static func cachedPage(
        page: Int, perPage: Int, in cache: ContactCache, offlineReason: MonicaClientError?
    ) throws
        -> ContactListPage
    {
        let perPage = max(perPage, 1)
        let (contacts, total) = try cache.contacts(page: page, perPage: perPage)
        return ContactListPage(
            contacts: contacts, page: max(page, 1), lastPage: max((total + perPage - 1) / perPage, 1), total: total,
            offlineReason: offlineReason)
    }

    private func fetchDetails(of id: Int) async throws -> ContactDetails {
        async let contact = client.contact(id)
        async let relationships = client.relationships(of: id)
        async let notes = client.notes.list(of: id)
        async let tasks = client.tasks.list(of: id)
        async let activities = client.activities(of: id, page: 1, limit: Self.activitiesPerPage)
        async let gifts = client.gifts.list(of: id)
        async let reminders = client.reminders.list(of: id)
        async let calls = client.calls(of: id)
        async let debts = client.debts(of: id)
        async let pets = client.pets(of: id)
        async let lifeEvents = client.lifeEvents(of: id)
        async let conversations = client.conversations(of: id)
        let fetched = try await contact
        let firstActivities = try await activities
        let details = CachedDetails(
            relationships: try await relationships,
            notes: try await notes.items.sorted { ($0.createdAt ?? .distantPast) > ($1.createdAt ?? .distantPast) },
            tasks: try await tasks.items.sorted(by: MonicaTask.openBeforeDone),
            activities: firstActivities.items.sorted(by: MonicaActivity.newestFirst),
            hasMoreActivities: firstActivities.hasMore, gifts: try await gifts.items,
            reminders: try await reminders.items, calls: try await calls.sorted(by: MonicaCall.newestFirst),
            debts: try await debts.sorted { ($0.isSettled ? 1 : 0, $0.id) < ($1.isSettled ? 1 : 0, $1.id) },
            pets: try await pets, lifeEvents: try await lifeEvents.sorted(by: MonicaLifeEvent.newestFirst),
            conversations: try await conversations.sorted(by: MonicaConversation.newestFirst))
        let fetchedAt = now()
        try cache.saveContacts(
            [fetched], firstPosition: nil, keepingAddressesOf: try cache.contactsWithPendingEdits(), at: fetchedAt)
        try cache.saveDetails(details, of: id, at: fetchedAt)
        guard let result = try Self.cachedDetails(of: id, in: cache) else { throw MonicaClientError.notFound }
        return result
    }

    /// Activities come 10 at a time.
    public nonisolated static let activitiesPerPage = 10

    /// The next page of a contact's activities (page 2 onwards), newest first within the page.
    /// (`selectedContact` keeps the first page, as the cache does.)
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
        } catch let error as MonicaClientError where error.isRetryable {
            return ISOCountries.sortedByName.map { MonicaCountry(id: $0.code, name: $0.name) }
        }
    }

    // MARK: Sync

    /// Sends the queued address edits, then re-reads every contact (100 a page) and the countries.
    /// Contacts deleted on the server leave the cache. Throws when the server can't be reached
    /// (`offlineReason` says why); nothing cached is lost then. `list` then shows its page of the
    /// new list.
    @discardableResult
    public func sync() async throws -> ContactSyncSummary {
        do {
            let replay = try await sendPendingAddressEdits()
            if let stopped = replay.stoppedBy { throw stopped }
            let contacts = try await client.allContacts().allItems()
            let countries = try await client.countries()
            let (cache, index, date) = (self.cache, searchIndex, now())
            // Thousands of contacts: written and indexed away from the main actor.
            try await Self.awayFromMain {
                try cache.replaceContacts(contacts, keepingAddressesOf: try cache.contactsWithPendingEdits(), at: date)
                try cache.saveCountries(countries)
                try index.prepare(cache)
            }
            offlineReason = nil
            if let current = list {
                list = try Self.cachedPage(page: current.page, perPage: listPerPage, in: cache, offlineReason: nil)
            }
            refresher.refresh()
            return ContactSyncSummary(
                contacts: contacts.count, countries: countries.count, addressEditsSent: replay.sent,
                addressEditsRefused: replay.refused)
        } catch let error as MonicaClientError where error.isRetryable {
            offlineReason = error
            throw error
        }
    }

    /// When the cache last held the server's whole list.
    public func lastSync() throws -> Date? { try cache.lastSync() }

    /// Settings' "Clear Cache": forgets every cached contact and country. Queued address edits are
    /// kept (clearing must not lose a change); they are sent on the next sync. `list`,
    /// `searchResults` and `selectedContact` are emptied with it.
    public func clearCache() throws {
        try cache.clear()
        list = nil
        listRequest = nil
        searchQuery = ""
        searchResults = []
        selectedContact = nil
        selectedID = nil
        refresher.refresh()
    }

    // MARK: Observable state

    /// Re-reads the observable state from the cache. It is kept current by itself; call this only
    /// after another `ContactBook` (a background refresh, another process) changed the same file.
    public func refresh() { refresher.refresh() }

    /// Reads what the observable state shows again from the cache, keeping what each part was
    /// read for (the list's page, the search, the contact) and why it came from the cache.
    private func readState() {
        do {
            if let current = list {
                var updated = current
                if current.isFromCache {
                    updated = try Self.cachedPage(
                        page: current.page, perPage: listPerPage, in: cache, offlineReason: current.offlineReason)
                } else {
                    updated.contacts = try cache.contacts(current.contacts.map(\.id))
                }
                if updated != current { list = updated }
            }
            if !searchQuery.isEmpty {
                let found = try cache.contacts(try searchIndex.search(searchQuery, limit: searchLimit, in: cache))
                if found != searchResults { searchResults = found }
            }
            if let shown = selectedContact {
                var details = try Self.cachedDetails(of: shown.contact.id, in: cache)
                details?.offlineReason = shown.offlineReason
                if details != selectedContact { selectedContact = details }
            }
            let pending = try cache.pendingAddressEdits()
            if pending != pendingEdits { pendingEdits = pending }
            let refused = try cache.failedAddressEdits()
            if refused != refusedEdits { refusedEdits = refused }
            let synced = try cache.lastSync()
            if synced != syncedAt { syncedAt = synced }
            readError = nil
        } catch {
            readError = error as? MonicaClientError ?? .storage("\(error)")
        }
    }

    /// Runs cache work that may take a while (a whole contact list) off the main actor.
    private nonisolated static func awayFromMain<Result: Sendable>(_ work: @Sendable () throws -> Result) async throws
        -> Result
    {
        try work()
    }
}
