import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization

/// FatSecret (token endpoint and Platform API) and Open Food Facts on one loopback port, answering
/// in the shapes their documentation gives, quirks included. What each search answers depends on
/// its query (see `FatSecretAnswers` and `OpenFoodFactsAnswers`); every request is recorded.
final class FoodServicesStandIn: Sendable {
    static let clientID = "kith-test-client"
    static let clientSecret = "s3cret-never-on-a-device"

    struct Recorded: Sendable {
        let method: String
        let path: String
        let query: [String: String]
        let headers: [String: String]
        let body: String
    }

    private struct State {
        var requests: [Recorded] = []
        var issued = 0
        var validTokens: Set<String> = []
    }

    private let state = Mutex(State())
    /// `expires_in` of the tokens it gives.
    let tokenLifetime: Int
    /// How long the "slow" queries take.
    let slowAnswer: Duration

    init(tokenLifetime: Int = 86_400, slowAnswer: Duration = .seconds(3)) {
        self.tokenLifetime = tokenLifetime
        self.slowAnswer = slowAnswer
    }

    var requests: [Recorded] { state.withLock { $0.requests } }
    func requests(to path: String) -> [Recorded] { requests.filter { $0.path == path } }

    /// Makes every token given so far invalid, as an expiry on FatSecret's side would.
    func expireAllTokens() { state.withLock { $0.validTokens = [] } }

    /// Runs `body` with the stand-in listening on a free loopback port.
    func run(_ body: @escaping @Sendable (_ baseURL: String) async throws -> Void) async throws {
        let app = Application(router: router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            guard let port = client.port else { throw StandInError("the stand-in has no port") }
            try await body("http://127.0.0.1:\(port)")
        }
    }

    struct StandInError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private func record(_ request: Request) async throws -> Recorded {
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        var query: [String: String] = [:]
        for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
        let body = String(buffer: try await request.body.collect(upTo: 100_000))
        let recorded = Recorded(
            method: request.method.rawValue, path: request.uri.path, query: query, headers: headers, body: body)
        state.withLock { $0.requests.append(recorded) }
        return recorded
    }

    private func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/connect/token") { request, _ in try await self.token(self.record(request)) }
        router.get("/rest/server.api") { request, _ in try await self.fatSecret(self.record(request)) }
        router.get("/cgi/search.pl") { request, _ in try await self.openFoodFacts(self.record(request)) }
        return router
    }

    // MARK: FatSecret

    /// OAuth 2.0 client credentials: HTTP Basic with the client id and secret, `grant_type` and `scope`.
    private func token(_ request: Recorded) -> Response {
        let expected = "Basic " + Data("\(Self.clientID):\(Self.clientSecret)".utf8).base64EncodedString()
        let form = Dictionary(
            request.body.split(separator: "&").map { pair -> (String, String) in
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? (parts[1].removingPercentEncoding ?? parts[1]) : "")
            }, uniquingKeysWith: { $1 })
        guard request.headers["authorization"] == expected else {
            return Self.json(#"{"error":"invalid_client"}"#, status: .badRequest)
        }
        guard form["grant_type"] == "client_credentials", form["scope"] == "basic" else {
            return Self.json(#"{"error":"invalid_request"}"#, status: .badRequest)
        }
        let token = state.withLock { state -> String in
            state.issued += 1
            let token = "fs-token-\(state.issued)"
            state.validTokens.insert(token)
            return token
        }
        return Self.json(
            #"{"access_token":"\#(token)","expires_in":\#(tokenLifetime),"token_type":"Bearer","scope":"basic"}"#)
    }

    private func fatSecret(_ request: Recorded) async throws -> Response {
        // Without format=json, FatSecret answers XML.
        guard request.query["format"] == "json" else {
            return Response(
                status: .ok, headers: [.contentType: "text/xml"],
                body: .init(byteBuffer: ByteBuffer(string: #"<?xml version="1.0" encoding="utf-8" ?><foods/>"#)))
        }
        let bearer = request.headers["authorization"].map { String($0.dropFirst("Bearer ".count)) } ?? ""
        guard state.withLock({ $0.validTokens.contains(bearer) }) else {
            return Self.json(#"{"error":{"code":13,"message":"Invalid token: provided token is invalid or expired"}}"#)
        }
        guard request.query["method"] == "foods.search" else {
            return Self.json(#"{"error":{"code":10,"message":"Unknown method"}}"#)
        }
        let query = request.query["search_expression"] ?? ""
        switch query {
        case "slow":
            try await Task.sleep(for: slowAnswer)
            return Self.json(FatSecretAnswers.single)
        case "broken":
            return Response(
                status: .badGateway, headers: [.contentType: "text/html"],
                body: .init(byteBuffer: ByteBuffer(string: "<html><body>502 Bad Gateway</body></html>")))
        case "refused":
            return Self.json(#"{"error":{"code":21,"message":"Invalid IP address detected: '203.0.113.9'"}}"#)
        case "quinoa":
            return Self.json(FatSecretAnswers.single)
        case "nothing like this":
            return Self.json(FatSecretAnswers.none)
        default:
            return Self.json(FatSecretAnswers.several)
        }
    }

    // MARK: Open Food Facts

    private func openFoodFacts(_ request: Recorded) async throws -> Response {
        switch request.query["search_terms"] ?? "" {
        case "slow":
            try await Task.sleep(for: slowAnswer)
            return Self.json(OpenFoodFactsAnswers.spreads)
        case "down", "broken":
            return Response(
                status: .serviceUnavailable, headers: [.contentType: "text/html"],
                body: .init(byteBuffer: ByteBuffer(string: "<html><body>Service temporarily unavailable</body></html>"))
            )
        case "nothing like this":
            return Self.json(#"{"count":0,"page":1,"page_count":0,"page_size":20,"products":[],"skip":0}"#)
        default:
            return Self.json(OpenFoodFactsAnswers.spreads)
        }
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// `foods.search` answers in FatSecret's documented JSON: numbers as strings, one result as an
/// object, no `food` key for none.
enum FatSecretAnswers {
    static let several = #"""
        {"foods":{"food":[
        {"food_description":"Per 100g - Calories: 89kcal | Fat: 0.33g | Carbs: 22.84g | Protein: 1.09g","food_id":"35755","food_name":"Bananas","food_type":"Generic","food_url":"https://www.fatsecret.com/calories-nutrition/usda/bananas"},
        {"food_description":"Per 1 medium - Calories: 105kcal | Fat: 0.39g | Carbs: 26.95g | Protein: 1.29g","food_id":"5388","food_name":"Banana","food_type":"Generic","food_url":"https://www.fatsecret.com/calories-nutrition/generic/banana"},
        {"brand_name":"Chiquita","food_description":"Per 1 banana - Calories: 110kcal | Fat: 0.00g | Carbs: 29.00g | Protein: 1.00g","food_id":"61234","food_name":"Banana","food_type":"Brand","food_url":"https://www.fatsecret.com/calories-nutrition/chiquita/banana"},
        {"food_description":"Per 1 1/2 cups - Calories: 1,050kcal | Fat: 3g | Carbs: 262.5g | Protein: 4g","food_id":"99","food_name":"Banana syrup","food_type":"Generic","food_url":"https://www.fatsecret.com/x"},
        {"food_description":"Nutrition facts unavailable","food_id":"100","food_name":"Banana mystery","food_type":"Generic","food_url":"https://www.fatsecret.com/y"}
        ],"max_results":"20","page_number":"0","total_results":"1514"}}
        """#

    static let single = #"""
        {"foods":{"food":{"food_description":"Per 1/2 cup - Calories: 111kcal | Fat: 1.78g | Carbs: 19.70g | Protein: 4.07g","food_id":"4837","food_name":"Quinoa","food_type":"Generic","food_url":"https://www.fatsecret.com/calories-nutrition/usda/quinoa"},"max_results":"20","page_number":"0","total_results":"1"}}
        """#

    static let none = #"{"foods":{"max_results":"20","page_number":"0","total_results":"0"}}"#
}

/// `/cgi/search.pl?json=1` answers in Open Food Facts' shape: numbers sometimes strings, names
/// sometimes empty, kcal sometimes missing (kJ only).
enum OpenFoodFactsAnswers {
    static let spreads = #"""
        {"count":6,"page":1,"page_count":6,"page_size":20,"skip":0,"products":[
        {"product_name":"Nutella","brands":"Ferrero,Nutella","nutriments":{"energy-kcal_100g":539,"proteins_100g":6.3,"carbohydrates_100g":57.5,"fat_100g":30.9}},
        {"product_name":"Hazelnut spread","brands":"Bonne Maman","nutriments":{"energy-kcal_100g":"545","proteins_100g":"7","carbohydrates_100g":"54","fat_100g":"32"}},
        {"product_name":"","product_name_en":"Cocoa spread","brands":"","nutriments":{"energy-kcal_100g":520,"fat_100g":29,"proteins_100g":""}},
        {"product_name":"","brands":"Nameless","nutriments":{"energy-kcal_100g":500}},
        {"product_name":"Only kilojoules","nutriments":{"energy_100g":2255,"energy-kj_100g":2255}},
        {"product_name":"No nutriments at all"}
        ]}
        """#
}
