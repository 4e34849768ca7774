import AsyncHTTPClient
import Foundation
import KithCore
import KithTestSupport
import Logging
import Testing

@testable import KithServer

/// The providers against stand-ins of FatSecret and Open Food Facts on loopback, answering in the
/// services' documented shapes: FatSecret's quirks, errors, slow answers, tokens that expire.
@Suite("Food search providers against loopback stand-ins")
struct FoodSearchProviderTests {
    static let userAgent = "Kith/0.1 (+https://kith.example)"

    static func fatSecret(
        _ baseURL: String, clock: TestClock = TestClock(), secret: String = FoodServicesStandIn.clientSecret
    )
        -> FatSecretProvider
    {
        FatSecretProvider(
            settings: .init(
                clientID: FoodServicesStandIn.clientID, clientSecret: secret, tokenURL: "\(baseURL)/connect/token",
                apiURL: "\(baseURL)/rest/server.api"),
            client: .shared, userAgent: userAgent, timeout: .seconds(5), clock: clock.clock)
    }

    static func openFoodFacts(_ baseURL: String, timeout: Duration = .seconds(5)) -> OpenFoodFactsProvider {
        OpenFoodFactsProvider(
            settings: .init(baseURL: baseURL), client: .shared, userAgent: userAgent, timeout: timeout)
    }

    // MARK: FatSecret

    @Test("FatSecret: several results, numbers from the description, brands named, unreadable ones left out")
    func fatSecretSeveral() async throws {
        let standIn = FoodServicesStandIn()
        try await standIn.run { base in
            let foods = try await Self.fatSecret(base).search("banana", limit: 20)
            #expect(
                foods == [
                    Food(
                        name: "Bananas", calories: 89, protein: 1.09, carbs: 22.84, fat: 0.33, servingSize: 100,
                        servingUnit: "g"),
                    Food(
                        name: "Banana", calories: 105, protein: 1.29, carbs: 26.95, fat: 0.39, servingSize: 1,
                        servingUnit: "medium"),
                    Food(
                        name: "Banana (Chiquita)", calories: 110, protein: 1, carbs: 29, fat: 0, servingSize: 1,
                        servingUnit: "banana"),
                    Food(
                        name: "Banana syrup", calories: 1050, protein: 4, carbs: 262.5, fat: 3, servingSize: 1.5,
                        servingUnit: "cups"),
                ])
            let search = try #require(standIn.requests(to: "/rest/server.api").first)
            #expect(search.query["format"] == "json")
            #expect(search.query["method"] == "foods.search")
            #expect(search.query["search_expression"] == "banana")
            #expect(search.query["max_results"] == "20")
            #expect(search.headers["authorization"] == "Bearer fs-token-1")
        }
    }

    @Test("FatSecret: one result arrives as an object, no result without a food key")
    func fatSecretSingleAndNone() async throws {
        let standIn = FoodServicesStandIn()
        try await standIn.run { base in
            let provider = Self.fatSecret(base)
            let single = try await provider.search("quinoa", limit: 5)
            #expect(
                single == [
                    Food(
                        name: "Quinoa", calories: 111, protein: 4.07, carbs: 19.7, fat: 1.78, servingSize: 0.5,
                        servingUnit: "cup")
                ])
            let none = try await provider.search("nothing like this", limit: 5)
            #expect(none.isEmpty)
            let two = try await provider.search("banana", limit: 2)
            #expect(two.count == 2, "the limit holds")
        }
    }

    @Test("FatSecret: the token is fetched with basic auth and scope basic, then kept until shortly before it expires")
    func fatSecretTokenIsCached() async throws {
        let standIn = FoodServicesStandIn(tokenLifetime: 3600)
        let clock = TestClock()
        try await standIn.run { base in
            let provider = Self.fatSecret(base, clock: clock)
            _ = try await provider.search("banana", limit: 5)
            _ = try await provider.search("quinoa", limit: 5)
            let tokenRequests = standIn.requests(to: "/connect/token")
            #expect(tokenRequests.count == 1, "one token for both searches")
            let tokenRequest = try #require(tokenRequests.first)
            #expect(tokenRequest.method == "POST")
            #expect(tokenRequest.headers["content-type"] == "application/x-www-form-urlencoded")
            #expect(tokenRequest.body.contains("grant_type=client_credentials"))
            #expect(tokenRequest.body.contains("scope=basic"))

            clock.advance(by: 3600 - 61)
            _ = try await provider.search("banana", limit: 5)
            #expect(standIn.requests(to: "/connect/token").count == 1, "still good a minute before expiry")
            clock.advance(by: 2)
            _ = try await provider.search("banana", limit: 5)
            #expect(standIn.requests(to: "/connect/token").count == 2, "renewed within the last minute")
            #expect(standIn.requests(to: "/rest/server.api").last?.headers["authorization"] == "Bearer fs-token-2")
        }
    }

    @Test("FatSecret: a token it no longer takes (error 13 with HTTP 200) is replaced and the search asked again")
    func fatSecretRejectedTokenIsRenewed() async throws {
        let standIn = FoodServicesStandIn()
        try await standIn.run { base in
            let provider = Self.fatSecret(base)
            _ = try await provider.search("banana", limit: 5)
            standIn.expireAllTokens()
            #expect(try await provider.search("quinoa", limit: 5).map(\.name) == ["Quinoa"])
            #expect(standIn.requests(to: "/connect/token").count == 2)
            #expect(standIn.requests(to: "/rest/server.api").count == 3)
        }
    }

    @Test("FatSecret: its errors (HTTP 200 with an error object), a refused key and a broken gateway throw")
    func fatSecretErrors() async throws {
        let standIn = FoodServicesStandIn()
        try await standIn.run { base in
            await #expect(
                throws: FoodSearchProviderError.refused(
                    provider: "FatSecret", code: 21, message: "Invalid IP address detected: '203.0.113.9'")
            ) { try await Self.fatSecret(base).search("refused", limit: 5) }
            await #expect(throws: FoodSearchProviderError.status(provider: "FatSecret", code: 502)) {
                try await Self.fatSecret(base).search("broken", limit: 5)
            }
            do {
                _ = try await Self.fatSecret(base, secret: "wrong").search("banana", limit: 5)
                Issue.record("a wrong secret found foods")
            } catch let error as FoodSearchProviderError {
                guard case .refused(_, 400, let message) = error else { throw error }
                #expect(message.contains("invalid_client"))
            }
        }
    }

    @Test("FatSecret descriptions: servings with fractions, thousands, units cut to 30 characters")
    func fatSecretDescriptions() throws {
        let parsed = try #require(
            FatSecretDescription(
                "Per 1 large (7-1/2\" to 8-1/4\" long, weighing about 136g) - Calories: 121kcal | Fat: 0.45g"))
        #expect(parsed.servingSize == 1)
        #expect(parsed.servingUnit?.count == 30)
        #expect(parsed.calories == 121)
        #expect(parsed.fat == 0.45)
        #expect(parsed.protein == nil)
        #expect(FatSecretDescription("Per 100ml - Calories: 42kcal")?.servingUnit == "ml")
        #expect(FatSecretDescription("Per serving - Calories: 2,000kcal")?.calories == 2000)
        #expect(FatSecretDescription("Per serving - Fat: 1g") == nil, "no calories, no food")
        #expect(FatSecretDescription("Calories: 89kcal") == nil, "no serving part")
    }

    // MARK: Open Food Facts

    @Test(
        "Open Food Facts: kcal per 100 g, numbers or strings, products without a name or kcal left out, our User-Agent")
    func openFoodFactsSearch() async throws {
        let standIn = FoodServicesStandIn()
        try await standIn.run { base in
            let foods = try await Self.openFoodFacts(base).search("nutella", limit: 10)
            #expect(
                foods == [
                    Food(
                        name: "Nutella (Ferrero)", calories: 539, protein: 6.3, carbs: 57.5, fat: 30.9,
                        servingSize: 100, servingUnit: "g"),
                    Food(
                        name: "Hazelnut spread (Bonne Maman)", calories: 545, protein: 7, carbs: 54, fat: 32,
                        servingSize: 100, servingUnit: "g"),
                    Food(
                        name: "Cocoa spread", calories: 520, protein: nil, carbs: nil, fat: 29, servingSize: 100,
                        servingUnit: "g"),
                ])
            let request = try #require(standIn.requests(to: "/cgi/search.pl").first)
            #expect(request.headers["user-agent"] == Self.userAgent)
            #expect(request.query["search_terms"] == "nutella")
            #expect(request.query["json"] == "1")
            #expect(try await Self.openFoodFacts(base).search("nutella", limit: 1).count == 1)
            #expect(try await Self.openFoodFacts(base).search("nothing like this", limit: 5).isEmpty)
            await #expect(throws: FoodSearchProviderError.status(provider: "Open Food Facts", code: 503)) {
                try await Self.openFoodFacts(base).search("down", limit: 5)
            }
        }
    }

    @Test("a provider that cannot be reached throws rather than answering nothing")
    func unreachable() async throws {
        let port = try closedLoopbackPort()
        // AsyncHTTPClient retries a refused connection until the request's deadline.
        await #expect(throws: FoodSearchProviderError.self) {
            try await Self.openFoodFacts("http://127.0.0.1:\(port)", timeout: .milliseconds(500)).search(
                "nutella", limit: 5)
        }
    }

    // MARK: The service's order and fallback

    static func service(fatSecret base: String?, openFoodFacts offBase: String?, timeout: Duration) -> FoodSearchService
    {
        var settings = FoodSearchSettings()
        settings.timeout = timeout
        if let base {
            settings.fatSecret = .init(
                clientID: FoodServicesStandIn.clientID, clientSecret: FoodServicesStandIn.clientSecret,
                tokenURL: "\(base)/connect/token", apiURL: "\(base)/rest/server.api")
        }
        if let offBase { settings.openFoodFacts = .init(baseURL: offBase) }
        return FoodSearchService(
            settings: settings, client: .shared, userAgent: userAgent, clock: .system, logger: Logger(label: "test"))
    }

    @Test("the service asks FatSecret, then Open Food Facts, then the built-in list, and says who answered")
    func fallbackOrder() async throws {
        let standIn = FoodServicesStandIn(slowAnswer: .seconds(5))
        try await standIn.run { base in
            // A generous timeout where nothing is slow, so a loaded machine does not fall back.
            let both = Self.service(fatSecret: base, openFoodFacts: base, timeout: .seconds(5))
            #expect(both.providerNames == ["FatSecret", "Open Food Facts", "built-in list"])
            let banana = await both.search("banana", limit: 5)
            #expect(banana.source == .fatsecret)
            #expect(await both.search("refused", limit: 5).source == .openfoodfacts, "FatSecret's error: the next one")
            #expect(await both.search("broken", limit: 5).source == .builtin, "both broken")
            #expect(
                await both.search("nothing like this", limit: 5) == FoodSearchResponse(source: .fatsecret, foods: []))

            let impatient = Self.service(fatSecret: base, openFoodFacts: base, timeout: .milliseconds(500))
            let started = ContinuousClock.now
            let slow = await impatient.search("slow", limit: 5)
            #expect(slow.source == .builtin, "both too slow")
            #expect(ContinuousClock.now - started < .seconds(4), "each waited for only the timeout")

            let openOnly = Self.service(fatSecret: nil, openFoodFacts: base, timeout: .seconds(5))
            #expect(await openOnly.search("nutella", limit: 5).source == .openfoodfacts)
        }
        let none = Self.service(fatSecret: nil, openFoodFacts: nil, timeout: .seconds(5))
        let answer = await none.search("banana", limit: 3)
        #expect(answer.source == .builtin)
        #expect(answer.foods.first?.name == "Banana, raw")
    }

    @Test("a server that accepts the connection and never answers is given up after the timeout")
    func silentServer() async throws {
        let silent = try SilentLoopbackListener()
        defer { silent.close() }
        let service = Self.service(
            fatSecret: "http://127.0.0.1:\(silent.port)", openFoodFacts: nil, timeout: .milliseconds(300))
        let started = ContinuousClock.now
        #expect(await service.search("banana", limit: 5).source == .builtin)
        // Without the timeout it would wait forever; the bound leaves room for a loaded machine.
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("foods outside the limits an item can be logged with are left out")
    func loggableOnly() {
        let foods = [
            Food(name: "Fine", calories: 100), Food(name: "Too much", calories: 60_000),
            Food(name: String(repeating: "x", count: 201), calories: 5),
            Food(name: "Negative fat", calories: 5, fat: -1),
        ]
        #expect(FoodSearchService.loggable(foods, limit: 10).map(\.name) == ["Fine"])
    }
}
