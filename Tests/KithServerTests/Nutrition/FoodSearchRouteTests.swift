import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// `GET /v1/food/search` through the router, on every engine: who may search, the bounds of the
/// query and limit, the providers' order, the per-user limit; the secret stays on the server.
@Suite("Food search route")
struct FoodSearchRouteTests {
    static func configure(_ base: String?, offBase: String? = nil, timeout: Duration = .seconds(5))
        -> (inout ServerConfig) -> Void
    {
        { config in
            config.foodSearch.timeout = timeout
            if let base {
                config.foodSearch.fatSecret = .init(
                    clientID: FoodServicesStandIn.clientID, clientSecret: FoodServicesStandIn.clientSecret,
                    tokenURL: "\(base)/connect/token", apiURL: "\(base)/rest/server.api")
            }
            if let offBase { config.foodSearch.openFoodFacts = .init(baseURL: offBase) }
        }
    }

    @Test(arguments: Engine.available)
    func withNothingConfiguredTheBuiltInListAnswers(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let session = try await client.signUp("ada@example.com")
            let response = try await client.call(.get, "/v1/food/search?q=banana", token: session.accessToken)
            #expect(response.status == .ok)
            let answer = try response.decode(FoodSearchResponse.self)
            #expect(answer.source == .builtin)
            #expect(answer.foods.first?.name == "Banana, raw")
            #expect(answer.foods.first?.serving == "1 medium (118 g)")
            #expect(answer.foods == BuiltInFoodSearch.standard.search("banana", limit: 20), "as devices search it")

            let accents = try await client.call(
                .get, "/v1/food/search?q=%20JALAPENO%20&limit=1", token: session.accessToken)
            #expect(try accents.decode(FoodSearchResponse.self).foods.map(\.name) == ["Jalapeño pepper, raw"])
        }
    }

    @Test(arguments: Engine.available)
    func onlyASignedInUserMaySearch(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            #expect(try await client.call(.get, "/v1/food/search?q=banana").status == .unauthorized)
            let wrong = try await client.call(.get, "/v1/food/search?q=banana", token: "kat_not-a-token")
            #expect(wrong.status == .unauthorized)
            #expect(wrong.error?.code == "unauthorized")
            let cookieOnly = try await client.call(
                .get, "/v1/food/search?q=banana", headers: [.cookie: "kith_session=kat_forged"])
            #expect(cookieOnly.status == .unauthorized)
        }
    }

    @Test(arguments: Engine.available)
    func theWebAppsSessionCookieMaySearch(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            _ = try await client.signUp("web@example.com")
            let page = try await MonicaWebSessionTests.WebApp.signIn(client, "web@example.com")
            let answer = try await page.get("/v1/food/search?q=apple&limit=2")
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.json["source"]?.stringValue == "builtin")
            #expect(answer.json["foods"]?.arrayValue?.count == 2)
        }
    }

    @Test(arguments: Engine.available)
    func theQueryAndLimitAreBounded(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let token = try await client.signUp("bounds@example.com").accessToken
            func check(
                _ path: String, _ status: HTTPResponse.Status, field: String?,
                sourceLocation: SourceLocation = #_sourceLocation
            )
                async throws
            {
                let response = try await client.call(.get, path, token: token)
                #expect(response.status == status, "\(path): \(response.text)", sourceLocation: sourceLocation)
                #expect(response.error?.field == field, "\(path)", sourceLocation: sourceLocation)
            }
            try await check("/v1/food/search", .badRequest, field: "q")
            try await check("/v1/food/search?q=", .unprocessableContent, field: "q")
            try await check("/v1/food/search?q=%20%20%20", .unprocessableContent, field: "q")
            try await check(
                "/v1/food/search?q=\(String(repeating: "a", count: 101))", .unprocessableContent, field: "q")
            try await check("/v1/food/search?q=%20\(String(repeating: "a", count: 98))%20", .ok, field: nil)
            // Lengths are code points as sent, as openapi.yaml's maxLength counts them: one letter with
            // 100 combining marks is 101, and a tab alone is blank (its pattern is \S).
            try await check(
                "/v1/food/search?q=e\(String(repeating: "%CC%81", count: 100))", .unprocessableContent, field: "q")
            try await check("/v1/food/search?q=%09", .unprocessableContent, field: "q")
            try await check("/v1/food/search?q=+", .unprocessableContent, field: "q")  // `+` is a space
            try await check("/v1/food/search?q=%2B", .ok, field: nil)  // and `%2B` a plus
            try await check("/v1/food/search?q=%C2%85", .ok, field: nil)  // NEL is not white space to \s
            try await check("/v1/food/search?q=egg&limit=abc", .badRequest, field: "limit")
            try await check("/v1/food/search?q=egg&limit=0", .unprocessableContent, field: "limit")
            try await check("/v1/food/search?q=egg&limit=51", .unprocessableContent, field: "limit")
            let fifty = try await client.call(.get, "/v1/food/search?q=c&limit=50", token: token)
            #expect(try fifty.decode(FoodSearchResponse.self).foods.count == 50)
            let standard = try await client.call(.get, "/v1/food/search?q=c", token: token)
            #expect(try standard.decode(FoodSearchResponse.self).foods.count == FoodSearchLimits.defaultLimit)
        }
    }

    @Test(arguments: Engine.available)
    func theConfiguredProvidersAnswerInOrderAndFallBack(_ engine: Engine) async throws {
        // Slow answers take far longer than the timeout, which is long enough for a loaded machine.
        let standIn = FoodServicesStandIn(slowAnswer: .seconds(8))
        try await standIn.run { base in
            try await TestServer.withRouter(
                engine, configure: Self.configure(base, offBase: base, timeout: .milliseconds(1500))
            ) { _, client in
                let token = try await client.signUp("order@example.com").accessToken
                func search(_ query: String) async throws -> (FoodSearchResponse, String) {
                    let response = try await client.call(.get, "/v1/food/search?q=\(query)&limit=5", token: token)
                    #expect(response.status == .ok)
                    return (try response.decode(FoodSearchResponse.self), response.text)
                }
                let (fatSecret, text) = try await search("banana")
                #expect(fatSecret.source == .fatsecret)
                #expect(fatSecret.foods.first?.name == "Bananas")
                #expect(!text.contains(FoodServicesStandIn.clientSecret))
                #expect(!text.contains("fs-token"))
                #expect(try await search("refused").0.source == .openfoodfacts)
                #expect(try await search("slow").0.source == .builtin)
                #expect(try await search("broken").0.source == .builtin)
                let userAgents = Set(standIn.requests.compactMap { $0.headers["user-agent"] })
                #expect(userAgents == ["Kith/0.1 (+https://kith.example)"])
            }
        }
    }

    @Test(arguments: Engine.available)
    func eachUserHasANumberOfSearchesPerMinute(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: { $0.foodSearch.rateLimitPerMinute = 2 }) { server, client in
            let ada = try await client.signUp("ada@example.com").accessToken
            let bob = try await client.signUp("bob@example.com").accessToken
            for _ in 0..<2 {
                #expect(try await client.call(.get, "/v1/food/search?q=egg", token: ada).status == .ok)
            }
            let refused = try await client.call(.get, "/v1/food/search?q=egg", token: ada)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.error?.code == "too_many_attempts")
            #expect(refused.headers[.retryAfter] == "60")
            #expect(try await client.call(.get, "/v1/food/search?q=egg", token: bob).status == .ok, "bob has his own")
            server.clock.advance(by: 61)
            #expect(try await client.call(.get, "/v1/food/search?q=egg", token: ada).status == .ok)
        }
    }

    @Test func theSettingsAreReadFromTheEnvironment() throws {
        let config = try ServerConfig.fromEnvironment([
            "KITH_FATSECRET_CLIENT_ID": "id", "KITH_FATSECRET_CLIENT_SECRET": "secret",
            "KITH_FATSECRET_API_URL": "http://127.0.0.1:9/api", "KITH_OPEN_FOOD_FACTS": "on",
            "KITH_FOOD_SEARCH_TIMEOUT": "2.5", "KITH_FOOD_SEARCH_RATE_LIMIT": "30",
        ])
        #expect(
            config.foodSearch.fatSecret
                == .init(clientID: "id", clientSecret: "secret", tokenURL: nil, apiURL: "http://127.0.0.1:9/api"))
        #expect(config.foodSearch.fatSecret?.tokenURL == "https://oauth.fatsecret.com/connect/token")
        #expect(config.foodSearch.openFoodFacts?.baseURL == "https://world.openfoodfacts.org")
        #expect(config.foodSearch.timeout == .milliseconds(2500))
        #expect(config.foodSearch.rateLimitPerMinute == 30)
        try config.validate()

        let defaults = try ServerConfig.fromEnvironment([:])
        #expect(defaults.foodSearch.fatSecret == nil)
        #expect(defaults.foodSearch.openFoodFacts == nil, "Open Food Facts is off unless switched on")
        #expect(defaults.foodSearch.timeout == .seconds(5))

        for environment in [
            ["KITH_FATSECRET_CLIENT_ID": "id"], ["KITH_FATSECRET_CLIENT_SECRET": "secret"],
            ["KITH_FATSECRET_API_URL": "http://127.0.0.1:9/api"],
            ["KITH_OPEN_FOOD_FACTS_URL": "http://127.0.0.1:9"], ["KITH_OPEN_FOOD_FACTS": "maybe"],
            ["KITH_FOOD_SEARCH_TIMEOUT": "0"], ["KITH_FOOD_SEARCH_TIMEOUT": "soon"],
            ["KITH_FOOD_SEARCH_RATE_LIMIT": "0"],
        ] {
            #expect(throws: ConfigError.self, "\(environment)") { try ServerConfig.fromEnvironment(environment) }
        }
        var bad = ServerConfig()
        bad.foodSearch.openFoodFacts = .init(baseURL: "ftp://example.com")
        #expect(throws: ConfigError.self) { try bad.validate() }
    }
}
