import Foundation
import KithCore
import KithKit
import KithTestSupport
import Testing

/// KithKit's Monica client against recorded real-Monica answers (MonicaStub): the quirks of a
/// real server decode, pages follow `meta`, errors read as seed 004 story 9 says.
@Suite("Monica client against recorded Monica answers")
struct MonicaClientRecordedTests {
    static func client(_ url: URL, timeout: TimeInterval = 30) throws -> MonicaClient {
        MonicaClient(
            server: try MonicaServerAddress(url), token: MonicaStub.token,
            transport: URLSessionTransport(timeout: timeout))
    }

    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func connectingChecksTheTokenWithMeAndKeepsItOnlyWhenValid() async throws {
        let stub = MonicaStub()
        let directory = try makeTemporaryDirectory("kith-monica-token")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileSecretStore<MonicaCredentials>(fileURL: directory.appendingPathComponent("monica.json"))
        try await stub.run { url in
            let server = try MonicaServerAddress(url)
            await #expect(throws: MonicaClientError.invalidToken) {
                _ = try await MonicaClient.connect(to: server, token: "wrong", store: store)
            }
            #expect(try store.load() == nil)
            #expect(MonicaClientError.invalidToken.userMessage == "This API token is invalid or expired.")

            let (_, credentials) = try await MonicaClient.connect(
                to: server, token: " \(MonicaStub.token)\n", store: store)
            #expect(credentials.user.email == "peter@example.com")
            #expect(credentials.user.timezone == "Europe/Paris")
            #expect(credentials.maskedToken == "moni…oken")
            let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

            let restored = try #require(try MonicaClient.restore(from: store))
            #expect(restored.credentials.token == MonicaStub.token)
            #expect(try await restored.client.me().id == 1)
        }
        #expect(stub.requests.allSatisfy { $0.path == "/api/me" })
    }

    @Test func realMonicasQuirksDecode() async throws {
        let stub = MonicaStub()
        try await stub.run { url in
            let client = try Self.client(url)
            let first = try await client.contacts(page: 1)
            #expect(first.items.map(\.id) == [42, 43])
            #expect(first.total == 3 && first.lastPage == 2 && first.hasMore)

            let john = first.items[0]
            #expect(john.displayName == "John Freaking Doe")
            #expect(john.lastCalled == Self.date("2024-05-04T08:06:05Z"))
            let together = try #require(john.lastActivityTogether)
            #expect(abs(together.timeIntervalSince(Self.date("2024-05-01T10:00:00Z")) - 0.25) < 0.001)
            #expect(john.lastInteraction == john.lastCalled)
            #expect(john.emails == ["john@doe.com"] && john.phones == ["+44 7700 900123"])
            #expect(john.contactFields?.first?.link?.absoluteString == "mailto:john@doe.com")
            #expect(john.contactFields?.last?.link?.absoluteString == "tel:+447700900123")
            #expect(john.job == "Carpenter" && john.company == "Acme")
            #expect(john.information?.dates?.birthdate?.date == MonicaDay(year: 1980, month: 10, day: 10))
            #expect(john.information?.relationships["family"]?.contacts.first?.contact.displayName == "Jonathan Swift")
            #expect(john.information?.relationships["love"]?.contacts.isEmpty == true)
            #expect(john.statistics?.numberOfNotes == 2)
            #expect(john.tags.map(\.name) == ["friends"])
            let home = try #require(john.addresses.first)
            #expect(home.latitude == 48.8559 && home.longitude == 2.3578)
            #expect(home.country == MonicaCountry(id: "FR", name: "France"))
            #expect(home.postal.formatted == "12 rue de Rivoli\n75004 Paris\nFrance")

            let jonathan = first.items[1]
            #expect(jonathan.isStarred && !jonathan.isPartial)
            #expect(jonathan.addresses.isEmpty && jonathan.statistics == nil)
            #expect(jonathan.information?.howYouMet == nil)
            #expect(jonathan.information?.dates?.birthdate?.isAgeBased == true)

            let second = try await client.contacts(page: 2)
            let jon = try #require(second.items.first)
            #expect(jon.id == 44)
            #expect(jon.lastCalled == Self.date("2024-03-02T10:11:12Z"))
            #expect(!second.hasMore)
        }
    }

    @Test func pagesFollowMetaUntilTheLastPage() async throws {
        let stub = MonicaStub()
        try await stub.run { url in
            let contacts = try await Self.client(url).allContacts().allItems()
            #expect(contacts.map(\.id) == [42, 43, 44])
        }
        let pages = stub.requests.filter { $0.path == "/api/contacts" }
        #expect(pages.map { $0.query["page"] } == ["1", "2"])
        #expect(pages.allSatisfy { $0.query["limit"] == "100" && $0.query["with"] == "contactfields" })
    }

    @Test func aContactsPageHasEverySection() async throws {
        let stub = MonicaStub()
        try await stub.run { url in
            let book = try await ContactBook(client: try Self.client(url), cacheURL: nil)
            let details = try await book.details(of: 42)
            #expect(details.notes.map(\.id) == [102, 101])
            #expect(details.notes.map(\.isFavorited) == [false, true])
            #expect(details.tasks.map(\.title) == ["Send the photos", "Return the drill"])
            #expect(details.activities.map(\.summary) == ["Dinner", "Climbing at the gym"])
            #expect(details.activities[1].attendees.map(\.id) == [42, 43])
            #expect(details.activities[1].activityType?.category?.name == "Simple activities")
            #expect(details.gifts.first?.amount == "$89.90")
            #expect(details.reminders.first?.frequencyText == "Every year")
            #expect(details.reminders.first?.initialDate == MonicaDay(year: 2024, month: 10, day: 10))
            #expect(details.related.map(\.name) == ["son"])
            #expect(details.related.map(\.contact.id) == [43])
            #expect(details.addresses.map(\.id) == [11])

            // Calls, debts, pets, conversations and life events, as Monica sends them.
            #expect(details.calls.map(\.id) == [602, 601], "newest first")
            #expect(details.calls.map(\.contactCalled) == [true, false])
            #expect(details.calls.first?.calledAt == Self.date("2024-05-04T08:06:05Z"))
            #expect(details.calls.last?.content == "Talked about the Alps trip.")
            #expect(details.calls.allSatisfy { $0.contact?.id == 42 })
            #expect(details.debts.map(\.id) == [701, 702], "open ones first")
            #expect(details.debts.map(\.amount) == ["$150.00", "$12.50"], "Monica's amounts are text")
            #expect(details.debts[0].youOwe && !details.debts[0].isSettled)
            #expect(!details.debts[1].youOwe && details.debts[1].isSettled && details.debts[1].reason == nil)
            #expect(details.pets.map(\.name) == ["Rex", nil])
            #expect(details.pets.map(\.kind) == ["Dog", "Small animal"])
            #expect(details.conversations.map(\.id) == [902, 901], "newest first")
            let telegram = try #require(details.conversations.last)
            #expect(telegram.contactFieldType?.name == "Telegram")
            #expect(telegram.happenedAt == Self.date("2024-04-28T00:00:00Z"))
            #expect(
                telegram.messages.map(\.content) == [
                    "Are you still up for the Alps in June?", "Yes! Booking the hut tonight.",
                ])
            #expect(telegram.messages.map(\.writtenByMe) == [true, false])
            #expect(details.conversations.first?.messages.isEmpty == true)
            // Monica lists the account's life events only: John's are picked out, newest first.
            #expect(details.lifeEvents.map(\.id) == [1403, 1401])
            #expect(
                details.lifeEvents.map(\.happenedAt) == [
                    MonicaDay(year: 2021, month: 6, day: 1), MonicaDay(year: 2019, month: 3, day: 1),
                ])
            #expect(details.lifeEvents.map(\.name) == ["Moved to Paris", "Started at Acme"])
            #expect(details.lifeEvents.map { $0.lifeEventType?.id } == [19, 1])
            #expect(!details.isFromCache)
        }
        #expect(stub.lines.contains("GET /api/contacts/42/lifeevents") && stub.lines.contains("GET /api/lifeevents"))
    }

    @Test func countriesComeAsMonicasObjectOrAsAnArray() async throws {
        let stub = MonicaStub()
        try await stub.run { url in
            let client = try Self.client(url)
            let keyed = try await client.countries()
            #expect(keyed.map(\.id) == ["FR", "DE", "JP", "GB", "US"])
            stub.answer("GET /api/countries", .init(fixture: "countries-array"))
            let listed = try await client.countries()
            #expect(listed == keyed)
        }
    }

    @Test func errorsReadAsTheSeedSays() async throws {
        let stub = MonicaStub()
        try await stub.run { url in
            let client = try Self.client(url)
            stub.answer(
                "GET /api/contacts?page=1", .init(status: 429, fixture: "error-429", headers: ["Retry-After": "30"]))
            let limited = await #expect(throws: MonicaClientError.self) { _ = try await client.contacts() }
            #expect(limited == .rateLimited(retryAfter: 30))
            #expect(limited?.userMessage == "Too many requests. Please wait a moment.")
            #expect(limited?.isRetryable == true)

            stub.answer("GET /api/contacts?page=1", .init(status: 500, fixture: "error-500"))
            let trouble = await #expect(throws: MonicaClientError.self) { _ = try await client.contacts() }
            #expect(trouble?.userMessage == "Monica is having trouble. Please try again.")
            #expect(trouble?.isRetryable == true)

            stub.answer("POST /api/addresses", .init(status: 422, fixture: "error-422"))
            let refused = await #expect(throws: MonicaClientError.self) {
                _ = try await client.createAddress(MonicaAddressInput(contactID: 42, PostalAddress(city: "Paris")))
            }
            #expect(refused == .rejected(status: 422, messages: ["The contact id field is required."]))
            #expect(refused?.isRetryable == false)

            stub.answer("GET /api/contacts/42", .init(fixture: "contact-42", delay: .seconds(3)))
            let slow = await #expect(throws: MonicaClientError.self) {
                _ = try await Self.client(url, timeout: 1).contact(42)
            }
            #expect(slow == .timeout && slow?.isRetryable == true)
        }
        let offline = await #expect(throws: MonicaClientError.self) {
            _ = try await Self.client(URL(string: "http://127.0.0.1:\(try closedLoopbackPort())")!).me()
        }
        #expect(offline?.userMessage == "Cannot connect. Check your internet and try again.")
    }

    @Test func aRefusedTokenSignsTheDeviceOut() async throws {
        let stub = MonicaStub()
        try await stub.run { url in
            let store = InMemorySecretStore<MonicaCredentials>()
            _ = try await MonicaClient.connect(to: try MonicaServerAddress(url), token: MonicaStub.token, store: store)
            // The token is revoked on the server: keep the saved one, let the server refuse it.
            var saved = try #require(try store.load())
            saved.token = "revoked"
            try store.save(saved)
            let client = try #require(try MonicaClient.restore(from: store)).client
            let error = await #expect(throws: MonicaClientError.self) { _ = try await client.contacts() }
            #expect(error == .signedOut)
            #expect(error?.userMessage == "Your session expired. Please log in again.")
            #expect(try store.load() == nil)
        }
    }

    @Test func anAddressUpdateSendsTheContactAndEveryField() async throws {
        let stub = MonicaStub()
        stub.answer("PUT /api/addresses/11", .init(fixture: "address-11"))
        try await stub.run { url in
            let book = try await ContactBook(client: try Self.client(url), cacheURL: nil)
            _ = try await book.details(of: 42)
            try await book.updateAddress(11, to: PostalAddress(label: "Home", city: "Lyon", countryCode: "fr"))
        }
        let put = try #require(stub.requests.first { $0.method == "PUT" })
        let body = try #require(try JSONSerialization.jsonObject(with: put.body) as? [String: Any])
        #expect(body["contact_id"] as? Int == 42)
        #expect(body["city"] as? String == "Lyon" && body["country"] as? String == "FR")
        for key in ["street", "province", "postal_code", "latitude", "longitude"] {
            #expect(body[key] is NSNull, "\(key)")
        }
    }

    @Test func onlyHTTPSLeavesThisMachine() throws {
        #expect(throws: MonicaClientError.insecureAddress) { try MonicaServerAddress("http://monica.example.com") }
        #expect(throws: MonicaClientError.self) { try MonicaServerAddress("ftp://monica.example.com") }
        #expect(throws: MonicaClientError.self) { try MonicaServerAddress("not a url") }
        #expect(
            try MonicaServerAddress("https://monica.example.com").apiURL.absoluteString
                == "https://monica.example.com/api")
        #expect(
            try MonicaServerAddress("https://app.monicahq.com/api/").apiURL.absoluteString
                == "https://app.monicahq.com/api")
        #expect(try MonicaServerAddress("http://127.0.0.1:8080").apiURL.absoluteString == "http://127.0.0.1:8080/api")
        #expect(try MonicaServerAddress("http://localhost/api").apiURL.absoluteString == "http://localhost/api")
        #expect(try MonicaServerAddress("http://[::1]:9000").apiURL.absoluteString == "http://[::1]:9000/api")
    }
}
