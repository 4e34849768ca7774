import Foundation
import KithCore

extension KithClient {
    /// Searches foods through the server's providers (`GET /v1/food/search`), as the signed-in user.
    /// The query and limit are checked here first, by the rules the server checks (`FoodSearchLimits`).
    ///
    /// Most apps call `FoodSearcher`, which falls back to the built-in list when this fails.
    public func searchFoods(_ query: String, limit: Int = FoodSearchLimits.defaultLimit) async throws
        -> FoodSearchResponse
    {
        let trimmed: String
        switch FoodSearchLimits.checkedQuery(query) {
        case .success(let checked): trimmed = checked
        case .failure(let problem): throw KithError.invalid(problem)
        }
        if let problem = FoodSearchLimits.problem(withLimit: limit) { throw KithError.invalid(problem) }
        return try await authorized(
            KithAPI.Food.search,
            query: [URLQueryItem(name: "q", value: trimmed), URLQueryItem(name: "limit", value: String(limit))])
    }
}
