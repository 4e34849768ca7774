import AsyncHTTPClient
import Foundation
import KithCore
import Logging
import NIOCore

/// FatSecret's Platform API (`foods.search`), with an OAuth 2.0 client-credentials token fetched
/// from the token URL and kept until shortly before it expires. FatSecret gives tokens only to
/// whitelisted IP addresses and the secret must not ship in an app, so devices search through the
/// server (`GET /v1/food/search`).
///
/// The quirks of its JSON (docs/food-search.md): every number is a string; one result arrives as an
/// object rather than a one-element array; no results means no `food` key at all; errors arrive with
/// HTTP 200 as `{"error":{"code":N,"message":"…"}}`; a food's numbers are only in the text of
/// `food_description` ("Per 100g - Calories: 89kcal | Fat: 0.33g | Carbs: 22.84g | Protein: 1.09g").
public struct FatSecretProvider: FoodSearchProvider {
    public let name = "FatSecret"
    public let source = FoodSearchSource.fatsecret
    let settings: FoodSearchSettings.FatSecret
    let http: OutboundHTTP
    let tokens: FatSecretTokenCache

    /// FatSecret's error codes for a token it no longer takes (invalid or expired): fetch a new one
    /// and ask again, once.
    static let tokenRejectionCodes: Set<Int> = [9, 13]

    init(settings: FoodSearchSettings.FatSecret, client: HTTPClient, userAgent: String, timeout: Duration, clock: Clock)
    {
        self.settings = settings
        http = OutboundHTTP(client: client, provider: "FatSecret", userAgent: userAgent, timeout: timeout)
        tokens = FatSecretTokenCache(settings: settings, http: http, clock: clock)
    }

    public func search(_ query: String, limit: Int) async throws -> [Food] {
        let token = try await tokens.token()
        do {
            return try await search(query, limit: limit, token: token)
        } catch FoodSearchProviderError.refused(_, let code, _) where Self.tokenRejectionCodes.contains(code) {
            await tokens.discard(token)
            return try await search(query, limit: limit, token: try await tokens.token())
        }
    }

    private func search(_ query: String, limit: Int, token: String) async throws -> [Food] {
        let parameters = OutboundHTTP.formEncoded([
            ("method", "foods.search"), ("search_expression", query), ("max_results", String(limit)),
            ("page_number", "0"), ("format", "json"),
        ])
        let separator = settings.apiURL.contains("?") ? "&" : "?"
        let answer = try await http.send(
            .GET, settings.apiURL + separator + parameters, headers: [("Authorization", "Bearer \(token)")])
        if answer.status == 401 || answer.status == 403 {
            // FatSecret documents errors with HTTP 200, but a gateway in front of it may use the status.
            throw FoodSearchProviderError.refused(provider: name, code: 13, message: "HTTP \(answer.status)")
        }
        guard (200..<300).contains(answer.status) else {
            throw FoodSearchProviderError.status(provider: name, code: answer.status)
        }
        let body: FatSecretSearchAnswer
        do {
            body = try JSONDecoder().decode(FatSecretSearchAnswer.self, from: Data(buffer: answer.body))
        } catch {
            throw FoodSearchProviderError.unreadable(provider: name, reason: "\(error)")
        }
        if let error = body.error {
            throw FoodSearchProviderError.refused(provider: name, code: error.code.value, message: error.message)
        }
        guard let foods = body.foods else {
            throw FoodSearchProviderError.unreadable(provider: name, reason: "neither \"foods\" nor \"error\"")
        }
        return (foods.food?.elements ?? []).compactMap { $0.value?.food }.prefix(limit).map { $0 }
    }
}

/// The client-credentials token, fetched when first needed and again shortly before it expires
/// (by the injected clock). Concurrent searches share one fetch.
actor FatSecretTokenCache {
    private let settings: FoodSearchSettings.FatSecret
    private let http: OutboundHTTP
    private let clock: Clock
    private var current: (token: String, renewAt: Date)?
    private var inFlight: Task<(token: String, renewAt: Date), any Error>?

    /// Renew this long before `expires_in` runs out (or at half the lifetime, when that is shorter).
    static let renewalMargin: TimeInterval = 60

    init(settings: FoodSearchSettings.FatSecret, http: OutboundHTTP, clock: Clock) {
        self.settings = settings
        self.http = http
        self.clock = clock
    }

    func token() async throws -> String {
        if let current, clock.now() < current.renewAt { return current.token }
        if let inFlight { return try await inFlight.value.token }
        let task = Task { try await self.fetch() }
        inFlight = task
        defer { inFlight = nil }
        let fetched = try await task.value
        current = fetched
        return fetched.token
    }

    /// Forgets `token` (FatSecret refused it) so the next search fetches a new one.
    func discard(_ token: String) {
        if current?.token == token { current = nil }
    }

    private func fetch() async throws -> (token: String, renewAt: Date) {
        let credentials = Data("\(settings.clientID):\(settings.clientSecret)".utf8).base64EncodedString()
        let answer = try await http.send(
            .POST, settings.tokenURL,
            headers: [
                ("Authorization", "Basic \(credentials)"), ("Content-Type", "application/x-www-form-urlencoded"),
            ],
            body: OutboundHTTP.formEncoded([("grant_type", "client_credentials"), ("scope", "basic")]))
        let body = Data(buffer: answer.body)
        guard (200..<300).contains(answer.status) else {
            // The token endpoint answers OAuth's `{"error":"invalid_client"}` (and 400/401) for a bad key,
            // or refuses an IP address that is not whitelisted.
            let reason = (try? JSONDecoder().decode(OAuthError.self, from: body)).map { $0.error } ?? "no reason given"
            throw FoodSearchProviderError.refused(
                provider: http.provider, code: answer.status, message: "the token request was refused: \(reason)")
        }
        let token: TokenAnswer
        do {
            token = try JSONDecoder().decode(TokenAnswer.self, from: body)
        } catch {
            throw FoodSearchProviderError.unreadable(provider: http.provider, reason: "token answer: \(error)")
        }
        let lifetime = TimeInterval(token.expiresIn.value)
        guard !token.accessToken.isEmpty, lifetime > 0 else {
            throw FoodSearchProviderError.unreadable(provider: http.provider, reason: "an empty or expired token")
        }
        let margin = min(Self.renewalMargin, lifetime / 2)
        return (token.accessToken, clock.now().addingTimeInterval(lifetime - margin))
    }

    private struct TokenAnswer: Decodable {
        let accessToken: String
        let expiresIn: LenientNumber

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiresIn = "expires_in"
        }
    }

    private struct OAuthError: Decodable {
        let error: String
    }
}

/// `foods.search`'s answer, or its error.
struct FatSecretSearchAnswer: Decodable {
    struct Foods: Decodable {
        /// Absent when nothing was found; an object for one result, an array for several. A food
        /// that cannot be read is left out rather than losing the others.
        let food: OneOrMany<Lossy<FatSecretFood>>?
    }

    struct ErrorBody: Decodable {
        let code: LenientNumber
        let message: String
    }

    let foods: Foods?
    let error: ErrorBody?
}

/// One food of a FatSecret search result.
struct FatSecretFood: Decodable {
    let foodName: String
    let brandName: String?
    let foodDescription: String

    enum CodingKeys: String, CodingKey {
        case foodName = "food_name"
        case brandName = "brand_name"
        case foodDescription = "food_description"
    }

    /// The food as Kith holds it; nil when its description gives no calories.
    var food: Food? {
        guard let numbers = FatSecretDescription(foodDescription) else { return nil }
        let name = foodName.trimmedWhitespace
        guard !name.isEmpty else { return nil }
        let brand = brandName?.trimmedWhitespace ?? ""
        let fullName = brand.isEmpty ? name : "\(name) (\(brand))"
        return Food(
            name: String(fullName.prefix(200)), calories: numbers.calories, protein: numbers.protein,
            carbs: numbers.carbs, fat: numbers.fat, servingSize: numbers.servingSize, servingUnit: numbers.servingUnit)
    }
}

/// The numbers in a FatSecret `food_description`:
/// "Per 100g - Calories: 89kcal | Fat: 0.33g | Carbs: 22.84g | Protein: 1.09g",
/// "Per 1 medium - Calories: 105kcal | …", "Per 1/2 cup - …".
struct FatSecretDescription: Equatable {
    var servingSize: Double?
    var servingUnit: String?
    var calories: Double
    var protein: Double?
    var carbs: Double?
    var fat: Double?

    init?(_ text: String) {
        guard let dash = text.range(of: " - ") else { return nil }
        var serving = text[..<dash.lowerBound].trimmingCharacters(in: .whitespaces)
        if serving.lowercased().hasPrefix("per ") { serving = String(serving.dropFirst(4)) }
        (servingSize, servingUnit) = Self.serving(serving)
        var values: [String: Double] = [:]
        for part in text[dash.upperBound...].split(separator: "|") {
            let pair = part.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, let number = Self.leadingNumber(pair[1]) else { continue }
            values[pair[0].trimmingCharacters(in: .whitespaces).lowercased()] = number.value
        }
        guard let calories = values["calories"] else { return nil }
        self.calories = calories
        protein = values["protein"]
        carbs = values["carbs"] ?? values["carbohydrate"]
        fat = values["fat"]
    }

    /// "100g" → (100, "g"); "1 medium" → (1, "medium"); "1 1/2 cups" → (1.5, "cups"); "serving" → (nil, "serving").
    static func serving(_ text: String) -> (Double?, String?) {
        var rest = Substring(text)
        var total: Double?
        while let number = leadingNumber(rest) {
            total = (total ?? 0) + number.value
            rest = number.rest.drop { $0 == " " }
        }
        let unit = rest.trimmingCharacters(in: .whitespaces)
        let size = total.flatMap { (0...100_000).contains($0) ? $0 : nil }
        return (size, unit.isEmpty ? nil : String(unit.prefix(30)))
    }

    /// The number a text starts with ("89kcal", "0.33g", "1/2 cup", "1,234kcal") and what follows it.
    static func leadingNumber(_ text: Substring) -> (value: Double, rest: Substring)? {
        let trimmed = text.drop { $0 == " " }
        let digits = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "/" || $0 == ",") }
        guard digits.contains(where: \.isNumber) else { return nil }
        let rest = trimmed[digits.endIndex...]
        let plain = digits.replacingOccurrences(of: ",", with: "")
        let parts = plain.split(separator: "/", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard let value = Double(plain), value.isFinite else { return nil }
            return (value, rest)
        case 2:
            guard let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator > 0 else {
                return nil
            }
            return (numerator / denominator, rest)
        default:
            return nil
        }
    }
}

/// A JSON value that is one of something or an array of them (FatSecret's `food` with one result).
enum OneOrMany<Element: Decodable>: Decodable {
    case one(Element)
    case many([Element])

    var elements: [Element] {
        switch self {
        case .one(let element): [element]
        case .many(let elements): elements
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let elements = try? container.decode([Element].self) {
            self = .many(elements)
        } else {
            self = .one(try container.decode(Element.self))
        }
    }
}

/// A value decoded if it can be, nil otherwise, so one odd element does not spoil a list.
struct Lossy<Value: Decodable>: Decodable {
    let value: Value?

    init(from decoder: any Decoder) throws { value = try? Value(from: decoder) }
}

/// A number that arrives as a JSON number or as a string holding one (FatSecret writes them all
/// as strings; Open Food Facts mixes both).
struct LenientNumber: Decodable, Equatable {
    let double: Double

    var value: Int { Int(exactly: double.rounded()) ?? 0 }

    init(_ double: Double) { self.double = double }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            double = number
        } else if let text = try? container.decode(String.self),
            let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite
        {
            double = number
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a number nor a string of one")
        }
    }
}
