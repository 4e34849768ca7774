import Foundation
import KithCore
import KithKit
import KithServer
import KithTestSupport
import Testing

/// The Contacts app with its server gone: the cache answers browsing and search, address edits
/// queue in order, and a server started again on the same data receives them (temporary ids
/// mapped, a refused edit reported, nothing else lost).
@Suite("ContactBook offline")
struct ContactBookOfflineTests {
    /// `kith serve` on `data` (and `database`), on `port` (0: a free one).
    static func serve(_ data: URL, database: String?, port: Int = 0) throws -> ServeProcess {
        var arguments = ["serve", "--data", data.path, "--port", String(port)]
        if let database { arguments += ["--database-url", database] }
        return try ServeProcess(
            arguments: arguments, environment: ["KITH_BCRYPT_COST": "4", "KITH_API_RATE_LIMIT": "100000"])
    }

    @Test(arguments: Engine.available)
    func browsingSearchAndAddressEditsWorkWithTheServerStopped(engine: Engine) async throws {
        let data = try makeTemporaryDirectory("kith-e2e-contacts-offline")
        defer { try? FileManager.default.removeItem(at: data) }
        let scratch = try await PostgresScratch.create(for: engine)
        defer { Task { await scratch?.drop() } }
        let first = try Self.serve(data, database: scratch?.url)
        defer { first.stop() }
        let (url, _) = try await first.waitUntilServing()

        // A user with four contacts, one with an address, and this device's cache filled.
        let kith = KithClient(
            serverURL: url, store: InMemorySessionStore(), transport: URLSessionTransport(timeout: 30))
        try await kith.signUp(email: uniqueEmail("offline"), password: "offline password 1")
        let token = try #require(try await kith.createPersonalToken(name: "phone").token)
        let monica = MonicaClient(
            server: try MonicaServerAddress(url), token: token, transport: URLSessionTransport(timeout: 30))
        let john = try await monica.createContact(MonicaContactInput(firstName: "John", lastName: "Doe"))
        let jonathan = try await monica.createContact(MonicaContactInput(firstName: "Jonathan", lastName: "Swift"))
        let mary = try await monica.createContact(MonicaContactInput(firstName: "Mary", lastName: "Poppins"))
        let gone = try await monica.createContact(MonicaContactInput(firstName: "Soon", lastName: "Gone"))
        let home = try await monica.createAddress(
            MonicaAddressInput(
                contactID: john.id,
                PostalAddress(
                    label: "Home", street: "1 Main St", city: "Springfield", province: "IL", postalCode: "62701",
                    countryCode: "US")))
        let goneHome = try await monica.createAddress(
            MonicaAddressInput(contactID: gone.id, PostalAddress(city: "Nowhere")))
        _ = try await monica.notes.create(MonicaNoteInput(contactID: john.id, body: "Met at the conference."))

        let cache = data.appendingPathComponent("phone-cache.sqlite")
        let phone = try await ContactBook(client: monica, cacheURL: cache)
        #expect(try await phone.sync().contacts == 4)
        _ = try await phone.details(of: john.id)

        first.stop()
        _ = try await first.waitForExit(timeout: .seconds(20))

        // Offline: a fresh ContactBook on the same cache file (the app relaunched without a network).
        let offline = try await ContactBook(client: monica, cacheURL: cache)
        let page = try await offline.contacts(page: 1)
        #expect(page.offlineReason == .offline)
        #expect(page.contacts.map(\.displayName) == ["John Doe", "Jonathan Swift", "Mary Poppins", "Soon Gone"])
        let found = try await offline.search("Jon").map(\.id)
        #expect(Set(found) == [john.id, jonathan.id])
        let details = try await offline.details(of: john.id)
        #expect(details.isFromCache && details.notes.map(\.body) == ["Met at the conference."])
        #expect(details.addresses.first?.postal.formatted == "1 Main St\nSpringfield, IL 62701\nUnited States")
        let countries = try await offline.countries()
        #expect(countries.count == 249)

        // Edits made offline, in this order.
        let maryHome = try await offline.addAddress(
            PostalAddress(label: "Home", city: "London", countryCode: "GB"), to: mary.id)
        #expect(maryHome.isPending)
        let maryFixed = try await offline.updateAddress(
            maryHome.id,
            to: PostalAddress(label: "Home", street: "17 Cherry Tree Lane", city: "London", countryCode: "GB"))
        #expect(maryFixed.id == maryHome.id && maryFixed.street == "17 Cherry Tree Lane")
        _ = try await offline.updateAddress(
            home.id, to: PostalAddress(label: "Home", city: "Shelbyville", countryCode: "US"))
        let scratchAddress = try await offline.addAddress(PostalAddress(city: "Temporary"), to: jonathan.id)
        try await offline.deleteAddress(scratchAddress.id)
        _ = try await offline.updateAddress(goneHome.id, to: PostalAddress(city: "Elsewhere"))
        await #expect(
            throws: MonicaClientError.invalid(
                "The address is empty: give at least a label, street, city, region, postal code, country or coordinates."
            )
        ) {
            _ = try await offline.addAddress(PostalAddress(street: "  "), to: mary.id)
        }
        let pending = try await offline.pendingAddressEdits()
        #expect(
            pending.map(\.action) == [.create, .update, .update],
            "the create carries its later edit; the scratch one never leaves")
        #expect(pending.map(\.addressID) == [maryHome.id, home.id, goneHome.id])
        let cachedMary = try await offline.addresses(of: mary.id).map(\.street)
        #expect(cachedMary == ["17 Cherry Tree Lane"])

        // The server comes back on the same address; meanwhile one contact was deleted elsewhere.
        let second = try Self.serve(data, database: scratch?.url, port: url.port!)
        defer { second.stop() }
        _ = try await second.waitUntilServing()
        try await monica.deleteContact(gone.id)
        let replay = try await offline.sendPendingAddressEdits()
        #expect(replay.sent == 2 && replay.remaining == 0 && replay.stoppedBy == nil)
        #expect(replay.refused.map(\.addressID) == [goneHome.id])
        #expect(replay.refused.first?.message == "The selected address id is invalid.", "the server's own reason")

        // The server has them; the cache shows the server's ids.
        let maryOnServer = try await monica.addresses(of: mary.id)
        #expect(maryOnServer.map(\.street) == ["17 Cherry Tree Lane"] && maryOnServer.map(\.country?.id) == ["GB"])
        let maryCached = try await offline.addresses(of: mary.id).map(\.id)
        #expect(maryCached == maryOnServer.map(\.id) && maryCached.allSatisfy { $0 > 0 })
        let johnOnServer = try await monica.addresses(of: john.id)
        #expect(johnOnServer.map(\.city) == ["Shelbyville"] && johnOnServer.first?.street == nil)
        let jonathanOnServer = try await monica.addresses(of: jonathan.id)
        #expect(jonathanOnServer.isEmpty)
        let refused = try await offline.refusedAddressEdits()
        #expect(refused.count == 1)

        let synced = try await offline.sync()
        #expect(synced.contacts == 3)
        let after = try await offline.cachedContacts()
        #expect(!after.contacts.contains { $0.id == gone.id })
        second.stop()
        _ = try await second.waitForExit(timeout: .seconds(20))
    }
}
