import Foundation
import KithCore
import Synchronization
import Testing

@testable import KithKit

/// A SwiftUI view binds to `ContactBook` directly: the list, the search results, the selected
/// contact, the queued address edits and why a read came from the cache are observable, set by the
/// reads and kept current after the book's own writes and after a sync brings the server's changes;
/// `refresh()` reads what another book (another connection to the same file) wrote.
@Suite("ContactBook: observable state")
@MainActor
struct ContactBookObservationTests {
    static let server = try! MonicaServerAddress("https://monica.example")

    static func book(_ monica: FakeMonica, cacheURL: URL? = nil) throws -> ContactBook {
        try ContactBook(
            client: MonicaClient(server: server, token: "t", transport: monica.transport), cacheURL: cacheURL)
    }

    @Test func readsSetTheStateAndOfflineReadsSayWhy() async throws {
        let monica = FakeMonica(["Ada Lovelace", "Alan Turing"])
        let book = try Self.book(monica)
        try await book.sync()

        let listed = ObservedChange { _ = book.list }
        let page = try await book.contacts(page: 1, perPage: 10)
        #expect(listed.hasHappened && book.list == page && book.offlineReason == nil)
        #expect(book.list?.contacts.map(\.displayName) == ["Ada Lovelace", "Alan Turing"])

        let searched = ObservedChange { _ = book.searchResults }
        #expect(try book.search("alan").map(\.id) == [2])
        #expect(searched.hasHappened && book.searchQuery == "alan" && book.searchResults.map(\.id) == [2])

        monica.online = false
        let offline = ObservedChange { _ = book.offlineReason }
        let details = try await book.details(of: 1)
        #expect(offline.hasHappened && book.offlineReason == .offline)
        #expect(book.selectedContact == details && details.isFromCache && details.contact.firstName == "Ada")
    }

    @Test func anAddressEditShowsAtOnceInTheListTheSearchAndTheContactsPage() async throws {
        let monica = FakeMonica(["Ada Lovelace"])
        let book = try Self.book(monica)
        try await book.sync()
        _ = try await book.contacts()
        _ = try book.search("ada")
        _ = try await book.details(of: 1)
        monica.online = false

        let edited = ObservedChange {
            _ = book.pendingEdits
            _ = book.list
            _ = book.searchResults
            _ = book.selectedContact
        }
        let queued = try await book.addAddress(PostalAddress(city: "London", countryCode: "GB"), to: 1)
        #expect(edited.hasHappened && queued.isPending)
        #expect(book.pendingEdits.map(\.addressID) == [queued.id])
        #expect(book.list?.contacts.first?.addresses.map(\.city) == ["London"])
        #expect(book.searchResults.first?.addresses.map(\.city) == ["London"])
        #expect(book.selectedContact?.addresses.map(\.id) == [queued.id])

        // Back online, the sync sends it: the queue empties and the server's id replaces the temporary one.
        monica.online = true
        let sent = ObservedChange { _ = book.pendingEdits }
        try await book.sync()
        #expect(sent.hasHappened && book.pendingEdits.isEmpty && book.offlineReason == nil)
        #expect(book.selectedContact?.addresses.map(\.id) == [100] && book.syncedAt != nil)
    }

    @Test func aSyncBringsTheServersChangesIntoTheState() async throws {
        let monica = FakeMonica(["Ada Lovelace", "Alan Turing"])
        let book = try Self.book(monica)
        try await book.sync()
        _ = try book.cachedContacts()
        _ = try book.search("Grace")
        #expect(book.searchResults.isEmpty)

        monica.rename(2, to: "Grace Hopper")
        let pulled = ObservedChange {
            _ = book.list
            _ = book.searchResults
        }
        try await book.sync()
        #expect(pulled.hasHappened)
        #expect(book.list?.contacts.map(\.displayName) == ["Ada Lovelace", "Grace Hopper"])
        #expect(book.searchResults.map(\.displayName) == ["Grace Hopper"])
    }

    @Test func refreshReadsWhatAnotherBookWroteToTheSameCache() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kithkit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cacheURL = directory.appendingPathComponent("cache.sqlite")
        let monica = FakeMonica(["Ada Lovelace"])
        let shown = try Self.book(monica, cacheURL: cacheURL)
        try await shown.sync()
        _ = try shown.cachedDetails(of: 1)

        // A background refresh with its own book (a BGAppRefreshTask, say) syncs the same cache.
        monica.rename(1, to: "Ada King")
        let background = try Self.book(monica, cacheURL: cacheURL)
        try await background.sync()
        let refreshed = ObservedChange { _ = shown.selectedContact }
        shown.refresh()
        #expect(await refreshed.happened())
        #expect(shown.selectedContact?.contact.displayName == "Ada King")
    }
}

/// A Monica server in memory: contacts by id with a name and at most one address (created with id
/// 100), every other list empty; offline when `online` is false.
final class FakeMonica: Sendable {
    private let state: Mutex<(online: Bool, names: [Int: String], cities: [Int: String])>

    init(_ names: [String]) {
        let byID = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($0.offset + 1, $0.element) })
        state = Mutex((true, byID, [:]))
    }

    var online: Bool {
        get { state.withLock { $0.online } }
        set { state.withLock { $0.online = newValue } }
    }

    func rename(_ id: Int, to name: String) { state.withLock { $0.names[id] = name } }

    var transport: FakeTransport {
        FakeTransport { [self] request in try self.answer(request) }
    }

    private func answer(_ request: HTTPExchangeRequest) throws -> HTTPExchangeResponse {
        let (online, names, cities) = state.withLock { ($0.online, $0.names, $0.cities) }
        guard online else { throw KithError.offline }
        func address(_ city: String) -> String { #"{"id":100,"city":"\#(city)","country":{"id":"GB","iso":"GB"}}"# }
        func contact(_ id: Int) -> String {
            let parts = (names[id] ?? "").split(separator: " ").map(String.init)
            let addresses = cities[id].map { "[\(address($0))]" } ?? "[]"
            return
                #"{"id":\#(id),"first_name":"\#(parts.first ?? "")","last_name":"\#(parts.last ?? "")","addresses":\#(addresses)}"#
        }
        let path = request.url.path.replacingOccurrences(of: "/api/", with: "")
        let body: String
        switch (request.method, path) {
        case ("GET", "contacts"):
            let all = names.keys.sorted().map(contact).joined(separator: ",")
            body = #"{"data":[\#(all)],"meta":{"current_page":1,"last_page":1,"total":\#(names.count)}}"#
        case ("GET", "countries"): body = #"{"data":{"gb":{"id":"GB","name":"United Kingdom","iso":"GB"}}}"#
        case ("POST", "addresses"):
            let input = try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any]
            let contactID = input?["contact_id"] as? Int ?? 0
            let city = input?["city"] as? String ?? ""
            state.withLock { $0.cities[contactID] = city }
            body = #"{"data":\#(address(city).dropLast()),"contact":\#(contact(contactID))}}"#
        case ("GET", let path) where path.hasPrefix("contacts/") && !path.dropFirst(9).contains("/"):
            guard let id = Int(path.dropFirst(9)), names[id] != nil else {
                return HTTPExchangeResponse(
                    status: 404, headers: [:], body: Data(#"{"error":{"message":"Not found"}}"#.utf8))
            }
            body = #"{"data":\#(contact(id))}"#
        default: body = #"{"data":[]}"#
        }
        return HTTPExchangeResponse(status: 200, headers: [:], body: Data(body.utf8))
    }
}
