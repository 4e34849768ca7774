import Foundation

/// Where the server looks foods up (docs/food-search.md). FatSecret when its key is set, Open Food
/// Facts when switched on, then always the built-in list; a provider that fails or takes longer
/// than `timeout` hands over to the next.
public struct FoodSearchSettings: Sendable {
    /// FatSecret's Platform API: OAuth 2.0 client credentials. The secret stays on the server.
    public struct FatSecret: Sendable, Equatable {
        public var clientID: String
        public var clientSecret: String
        public var tokenURL: String = FatSecret.defaultTokenURL
        public var apiURL: String = FatSecret.defaultAPIURL

        public static let defaultTokenURL = "https://oauth.fatsecret.com/connect/token"
        public static let defaultAPIURL = "https://platform.fatsecret.com/rest/server.api"

        public init(clientID: String, clientSecret: String, tokenURL: String? = nil, apiURL: String? = nil) {
            self.clientID = clientID
            self.clientSecret = clientSecret
            if let tokenURL { self.tokenURL = tokenURL }
            if let apiURL { self.apiURL = apiURL }
        }
    }

    /// Open Food Facts' search. Off unless switched on: it needs no key, but every query goes to a
    /// third party, which a server's owner should choose.
    public struct OpenFoodFacts: Sendable, Equatable {
        public var baseURL: String = OpenFoodFacts.defaultBaseURL

        public static let defaultBaseURL = "https://world.openfoodfacts.org"

        public init(baseURL: String? = nil) {
            if let baseURL { self.baseURL = baseURL }
        }
    }

    /// Nil: FatSecret is not used.
    public var fatSecret: FatSecret?
    /// Nil: Open Food Facts is not used.
    public var openFoodFacts: OpenFoodFacts?
    /// How long one provider may take (token and search together) before the next one answers.
    public var timeout: Duration = .seconds(5)
    /// Searches per user per minute (`GET /v1/food/search`): the providers' quotas are the server's.
    public var rateLimitPerMinute = 120

    /// No release numbering exists yet; this names the client in the User-Agent outbound requests carry.
    static let kithVersion = "0.1"

    public init() {}

    /// The User-Agent of outbound requests: Open Food Facts asks for one that names the app and
    /// a way to reach whoever runs it.
    static func userAgent(publicURL: String?, mailFrom: String) -> String {
        if let publicURL, !publicURL.isEmpty { return "Kith/\(kithVersion) (+\(publicURL))" }
        if !mailFrom.isEmpty, !mailFrom.hasSuffix("@localhost") { return "Kith/\(kithVersion) (\(mailFrom))" }
        return "Kith/\(kithVersion) (self-hosted Kith server)"
    }

    /// Applies the `KITH_FATSECRET_*`, `KITH_OPEN_FOOD_FACTS*` and `KITH_FOOD_SEARCH_*` variables.
    mutating func read(_ environment: [String: String]) throws {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }

        let id = value("KITH_FATSECRET_CLIENT_ID")
        let secret = value("KITH_FATSECRET_CLIENT_SECRET")
        switch (id, secret) {
        case (let id?, let secret?):
            fatSecret = FatSecret(
                clientID: id, clientSecret: secret, tokenURL: value("KITH_FATSECRET_TOKEN_URL"),
                apiURL: value("KITH_FATSECRET_API_URL"))
        case (nil, nil):
            if value("KITH_FATSECRET_TOKEN_URL") != nil || value("KITH_FATSECRET_API_URL") != nil {
                throw ConfigError(
                    "KITH_FATSECRET_TOKEN_URL or KITH_FATSECRET_API_URL is set, but FatSecret is off: set KITH_FATSECRET_CLIENT_ID and KITH_FATSECRET_CLIENT_SECRET"
                )
            }
        default:
            throw ConfigError("FatSecret needs both KITH_FATSECRET_CLIENT_ID and KITH_FATSECRET_CLIENT_SECRET")
        }

        switch value("KITH_OPEN_FOOD_FACTS")?.lowercased() {
        case "on", "true", "1", "yes":
            openFoodFacts = OpenFoodFacts(baseURL: value("KITH_OPEN_FOOD_FACTS_URL"))
        case nil, "off", "false", "0", "no":
            if value("KITH_OPEN_FOOD_FACTS_URL") != nil {
                throw ConfigError(
                    "KITH_OPEN_FOOD_FACTS_URL is set, but Open Food Facts is off: set KITH_OPEN_FOOD_FACTS=on")
            }
        case let other?:
            throw ConfigError("KITH_OPEN_FOOD_FACTS must be on or off, got \"\(other)\"")
        }

        if let text = value("KITH_FOOD_SEARCH_TIMEOUT") {
            guard let seconds = Double(text), seconds >= 0.1, seconds <= 60 else {
                throw ConfigError(
                    "KITH_FOOD_SEARCH_TIMEOUT must be a number of seconds from 0.1 to 60, got \"\(text)\"")
            }
            timeout = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        if let text = value("KITH_FOOD_SEARCH_RATE_LIMIT") {
            guard let limit = Int(text), limit > 0 else {
                throw ConfigError(
                    "KITH_FOOD_SEARCH_RATE_LIMIT must be a number of searches per minute above 0, got \"\(text)\"")
            }
            rateLimitPerMinute = limit
        }
    }

    /// Every configured URL is an absolute http(s) URL.
    func validate() throws {
        var urls: [(String, String)] = []
        if let fatSecret {
            urls += [("the FatSecret token URL", fatSecret.tokenURL), ("the FatSecret API URL", fatSecret.apiURL)]
        }
        if let openFoodFacts { urls.append(("the Open Food Facts URL", openFoodFacts.baseURL)) }
        for (what, text) in urls {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https",
                url.host != nil
            else { throw ConfigError("\(what) must be an absolute http(s) URL (got \"\(text)\")") }
        }
    }
}
