import Foundation
import KithCore

/// Food search for an app: the server's providers (FatSecret, Open Food Facts) when the device is
/// signed in and online, else the built-in list of common foods (`BuiltInFoods`), searched and
/// ranked exactly as the server searches it. Every answer says which source answered.
///
/// ```swift
/// let searcher = FoodSearcher(client: client)
/// let result = try await searcher.search("banana")
/// if result.source == .builtin, let reason = result.fallbackReason { showNote(reason.userMessage) }
/// ```
public struct FoodSearcher: Sendable {
    /// The foods found and where they came from.
    public struct Result: Sendable, Equatable {
        /// Who answered: the server's provider, or `.builtin` (on the server or on this device).
        public let source: FoodSearchSource
        /// Best match first, each with its numbers for one serving.
        public let foods: [Food]
        /// Why the server was not asked or did not answer, when the built-in list on this device
        /// answered instead (offline, signed out, the server in trouble); nil when the server answered.
        public let fallbackReason: KithError?
    }

    private let client: KithClient?
    private let builtIn: BuiltInFoodSearch

    /// - Parameter client: the device's connection to its server; nil searches only the built-in
    ///   list (an app used without an account).
    public init(client: KithClient?) {
        self.client = client
        builtIn = .standard
    }

    /// Searches for `query` (1 to 100 characters once trimmed) and answers at most `limit` foods
    /// (1 to 50). Throws `KithError.invalid` for a query or limit out of bounds; every failure of
    /// the server (offline, timeout, signed out, the server's trouble) answers from the built-in list.
    public func search(_ query: String, limit: Int = FoodSearchLimits.defaultLimit) async throws -> Result {
        let trimmed: String
        switch FoodSearchLimits.checkedQuery(query) {
        case .success(let checked): trimmed = checked
        case .failure(let problem): throw KithError.invalid(problem)
        }
        if let problem = FoodSearchLimits.problem(withLimit: limit) { throw KithError.invalid(problem) }
        guard let client else { return local(trimmed, limit: limit, because: .notSignedIn) }
        do {
            let answer = try await client.searchFoods(trimmed, limit: limit)
            return Result(source: answer.source, foods: answer.foods, fallbackReason: nil)
        } catch let error as KithError {
            if case .server(let status, _) = error, status == 400 || status == 422 { throw error }
            if case .invalid = error { throw error }
            return local(trimmed, limit: limit, because: error)
        }
    }

    private func local(_ query: String, limit: Int, because reason: KithError) -> Result {
        Result(source: .builtin, foods: builtIn.search(query, limit: limit), fallbackReason: reason)
    }
}
