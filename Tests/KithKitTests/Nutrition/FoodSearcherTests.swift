import Foundation
import KithCore
import KithKit
import Testing

/// `FoodSearcher`: the server when it can answer, the built-in list on the device when it cannot,
/// and always saying which answered.
@Suite("FoodSearcher: the server, or the built-in list offline")
struct FoodSearcherTests {
    static let fromServer = FoodSearchResponse(
        source: .fatsecret,
        foods: [
            Food(
                name: "Bananas", calories: 89, protein: 1.09, carbs: 22.84, fat: 0.33, servingSize: 100,
                servingUnit: "g")
        ])

    static func signedIn(_ transport: FakeTransport) -> FoodSearcher {
        FoodSearcher(client: Fixture.client(transport, store: InMemorySessionStore(Fixture.session())))
    }

    @Test("signed in and online: the server's provider answers, asked with the trimmed query and the limit")
    func serverAnswers() async throws {
        let transport = FakeTransport.replaying(Fixture.json(Self.fromServer))
        let result = try await Self.signedIn(transport).search("  banana ", limit: 5)
        #expect(result.source == .fatsecret)
        #expect(result.foods == Self.fromServer.foods)
        #expect(result.fallbackReason == nil)
        let request = try #require(transport.log.requests.first)
        #expect(transport.log.lines == ["GET /v1/food/search"])
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items == [URLQueryItem(name: "q", value: "banana"), URLQueryItem(name: "limit", value: "5")])
        #expect(request.header("Authorization") == "Bearer kat_old")
    }

    @Test("offline, timed out, or the server in trouble: the built-in list answers, saying why")
    func offlineFallsBack() async throws {
        let failures: [(Result<HTTPExchangeResponse, KithError>, KithError)] = [
            (.failure(.offline), .offline),
            (.failure(.timeout), .timeout),
            (
                .success(Fixture.error(503, .internalError)),
                .server(status: 503, APIErrorDetail(.internalError, "refused"))
            ),
            (
                .success(Fixture.error(429, .tooManyAttempts)),
                .server(status: 429, APIErrorDetail(.tooManyAttempts, "refused"))
            ),
        ]
        for (answer, reason) in failures {
            let result = try await Self.signedIn(FakeTransport.replaying([answer])).search("banana", limit: 2)
            #expect(result.source == .builtin)
            #expect(result.foods == BuiltInFoodSearch.standard.search("banana", limit: 2))
            #expect(result.fallbackReason == reason)
        }
    }

    @Test("signed out, or without a client: the built-in list answers and nothing is sent")
    func signedOutFallsBack() async throws {
        let transport = FakeTransport.replaying()
        let signedOut = FoodSearcher(client: Fixture.client(transport, store: InMemorySessionStore()))
        let result = try await signedOut.search("oats")
        #expect(result.source == .builtin)
        #expect(result.foods.first?.name == "Oats, rolled, dry")
        #expect(result.fallbackReason == .notSignedIn)
        #expect(transport.log.requests.isEmpty)

        let anonymous = try await FoodSearcher(client: nil).search("oats", limit: 1)
        #expect(anonymous.foods.map(\.serving) == ["1 cup (81 g)"])
        #expect(anonymous.fallbackReason == .notSignedIn)
    }

    @Test("a query or limit out of bounds is refused before anything is sent, as the server would")
    func boundsAreChecked() async throws {
        let transport = FakeTransport.replaying()
        let searcher = Self.signedIn(transport)
        for (query, limit, field) in [
            ("   ", 20, "q"), (String(repeating: "a", count: 101), 20, "q"), ("egg", 0, "limit"), ("egg", 51, "limit"),
        ] {
            do {
                _ = try await searcher.search(query, limit: limit)
                Issue.record("\(query.prefix(10)) / \(limit) was searched")
            } catch let error as KithError {
                #expect(error.field == field)
                #expect(error.kind == .invalid)
            }
        }
        #expect(transport.log.requests.isEmpty)

        let refused = FakeTransport.replaying(Fixture.error(422, .validationFailed, "no", field: "q"))
        await #expect(throws: KithError.self) { try await Self.signedIn(refused).search("egg") }
    }
}
