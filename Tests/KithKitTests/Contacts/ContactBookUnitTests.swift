import Foundation
import KithCore
import KithKit
import Testing

/// ContactBook and MonicaClient rules that need no server: address checks made before anything is
/// queued, waiting out Monica's rate limit, and decoding what real servers send.
@Suite("ContactBook without a server")
@MainActor
struct ContactBookUnitTests {
    static let server = try! MonicaServerAddress("https://monica.example")

    static func answer(_ status: Int, _ json: String, headers: [String: String] = [:]) -> HTTPExchangeResponse {
        HTTPExchangeResponse(status: status, headers: headers, body: Data(json.utf8))
    }

    static func offlineBook() throws -> ContactBook {
        let transport = FakeTransport { _ in throw KithError.offline }
        return try ContactBook(client: MonicaClient(server: server, token: "t", transport: transport), cacheURL: nil)
    }

    @Test func badAddressesAreRefusedBeforeAnythingIsQueued() async throws {
        let book = try Self.offlineBook()
        let cases: [(PostalAddress, String)] = [
            (PostalAddress(label: " ", street: "\n"), "The address is empty"),
            (PostalAddress(city: "Paris", countryCode: "France"), "France is not a country code"),
            (
                PostalAddress(city: String(repeating: "x", count: 256)),
                "The city may not be longer than 255 characters."
            ),
            (PostalAddress(latitude: 95, longitude: 2), "The latitude must be between -90 and 90."),
            (PostalAddress(latitude: 45, longitude: -181), "The longitude must be between -180 and 180."),
        ]
        for (address, message) in cases {
            let error = await #expect(throws: MonicaClientError.self) { try await book.addAddress(address, to: 1) }
            #expect(error?.userMessage.hasPrefix(message) == true, "\(message)")
        }
        let pending = try book.pendingAddressEdits()
        #expect(pending.isEmpty)
        let queued = try await book.addAddress(PostalAddress(city: "Paris", countryCode: "fr"), to: 1)
        #expect(queued.id == -1 && queued.country?.id == "FR" && queued.country?.name == "France")
    }

    @Test func editingAnUnknownAddressIsNotFound() async throws {
        let book = try Self.offlineBook()
        await #expect(throws: MonicaClientError.notFound) {
            try await book.updateAddress(5, to: PostalAddress(city: "Paris"))
        }
        await #expect(throws: MonicaClientError.notFound) { try await book.deleteAddress(5) }
    }

    @Test func aReadWaitsOutTheRateLimitWhenAskedTo() async throws {
        let me = #"{"data":{"id":"7","first_name":"Ada"}}"#
        let limited = Self.answer(
            429, #"{"error":{"message":"Too many attempts","error_code":34}}"#, headers: ["retry-after": "12"])
        let pauses = PauseLog()
        let transport = FakeTransport.replaying(limited, Self.answer(200, me))
        let client = MonicaClient(
            server: Self.server, transport: transport, pause: { await pauses.add($0) }, token: { "t" })
        await client.setRateLimitPatience(1)
        #expect(try await client.me().id == 7)
        #expect(await pauses.seconds == [12])

        let impatient = MonicaClient(server: Self.server, token: "t", transport: FakeTransport.replaying(limited))
        await #expect(throws: MonicaClientError.rateLimited(retryAfter: 12)) { _ = try await impatient.me() }
    }

    @Test func aNoteWithoutAnIDFailsClearlyAndAListKeepsTheReadableItems() async throws {
        let notes = #"""
            {"data":[{"id":1,"body":"kept","is_favorited":"1"},{"body":"no id"},{"id":"3","body":null,"created_at":"2024-01-02T03:04:05+02:00"}],
             "meta":{"current_page":"1","last_page":"1"}}
            """#
        let client = MonicaClient(
            server: Self.server, token: "t", transport: FakeTransport.replaying(Self.answer(200, notes)))
        let page = try await client.notes.list(of: 1)
        #expect(page.items.map(\.id) == [1, 3])
        #expect(page.items[0].isFavorited && page.items[1].body == "")
        #expect(page.items[1].createdAt == Date(timeIntervalSince1970: 1_704_157_445))

        let broken = MonicaClient(
            server: Self.server, token: "t", transport: FakeTransport.replaying(Self.answer(200, "<html>")))
        let error = await #expect(throws: MonicaClientError.self) { _ = try await broken.me() }
        guard case .invalidResponse = error else {
            Issue.record("expected invalidResponse, got \(String(describing: error))"); return
        }
        #expect(error?.isRetryable == false)
    }

    @Test func requestsCarryTheTokenAndAskForJSON() async throws {
        let transport = FakeTransport.replaying(Self.answer(200, #"{"data":{"id":1}}"#))
        _ = try await MonicaClient(server: Self.server, token: "secret", transport: transport).me()
        let request = try #require(transport.log.requests.first)
        #expect(request.url.absoluteString == "https://monica.example/api/me")
        #expect(request.headers["Authorization"] == "Bearer secret" && request.headers["Accept"] == "application/json")
    }
}

actor PauseLog {
    var seconds: [Int] = []
    func add(_ value: Int) { seconds.append(value) }
}
