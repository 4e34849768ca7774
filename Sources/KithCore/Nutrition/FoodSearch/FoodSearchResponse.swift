import Foundation

/// Who answered a food search.
public enum FoodSearchSource: String, Sendable, Codable, CaseIterable {
    /// FatSecret's Platform API, through the Kith server (which holds the key).
    case fatsecret
    /// Open Food Facts' search, through the Kith server.
    case openfoodfacts
    /// The list that ships with Kith (`BuiltInFoods`), on the server or on the device.
    case builtin
}

/// The answer of `GET /v1/food/search`: the foods found, best match first, and who found them.
public struct FoodSearchResponse: Sendable, Equatable, Codable {
    public var source: FoodSearchSource
    public var foods: [Food]

    public init(source: FoodSearchSource, foods: [Food]) {
        self.source = source
        self.foods = foods
    }
}

/// The bounds of a food search, checked by the server and by devices before they ask it.
public enum FoodSearchLimits {
    /// Characters (Unicode code points, as JSON Schema counts them) of a query as sent.
    public static let queryLength: ClosedRange<Int> = 1...100
    /// Foods in one answer.
    public static let limit: ClosedRange<Int> = 1...50
    public static let defaultLimit = 20

    /// The query trimmed of surrounding white space, or why it cannot be searched for (field `q`).
    public static func checkedQuery(_ query: String) -> Result<String, APIErrorDetail> {
        SchemaText.checked(
            query, maxLength: queryLength.upperBound, field: "q",
            tooLong: "A search is at most \(queryLength.upperBound) characters long.", empty: "Type something to search for.")
    }

    /// Why `limit` cannot be used (field `limit`), or nil when it can.
    public static func problem(withLimit limit: Int) -> APIErrorDetail? {
        guard self.limit.contains(limit) else {
            return APIErrorDetail(
                .validationFailed,
                "The limit must be from \(self.limit.lowerBound) to \(self.limit.upperBound) foods.", field: "limit")
        }
        return nil
    }
}
