import Foundation
import KithCore

/// One place foods are looked up (FatSecret, Open Food Facts, the built-in list). `FoodSearchService`
/// asks the configured ones in order and takes the first answer.
public protocol FoodSearchProvider: Sendable {
    /// For logs: "FatSecret".
    var name: String { get }
    /// What the answer says answered.
    var source: FoodSearchSource { get }
    /// At most `limit` foods for `query` (already trimmed and bounded), best first. Throws when the
    /// service cannot be reached or answers something other than its documented shapes.
    func search(_ query: String, limit: Int) async throws -> [Food]
}

/// Why a provider gave no answer. The search falls back to the next provider; the message goes to
/// the server's log, never to the person searching.
public enum FoodSearchProviderError: Error, CustomStringConvertible, Equatable {
    /// No connection, or it broke.
    case unreachable(provider: String, reason: String)
    /// Took longer than `FoodSearchSettings.timeout`.
    case timedOut(provider: String, after: Duration)
    /// An HTTP status other than success.
    case status(provider: String, code: Int)
    /// The service answered with its own error (FatSecret's `{"error":{"code","message"}}`).
    case refused(provider: String, code: Int, message: String)
    /// The answer is not in the service's documented shape.
    case unreadable(provider: String, reason: String)

    public var description: String {
        switch self {
        case .unreachable(let provider, let reason): "\(provider) could not be reached: \(reason)"
        case .timedOut(let provider, let after): "\(provider) did not answer within \(after)"
        case .status(let provider, let code): "\(provider) answered HTTP \(code)"
        case .refused(let provider, let code, let message):
            "\(provider) refused the request (error \(code)): \(message)"
        case .unreadable(let provider, let reason): "\(provider) answered something unreadable: \(reason)"
        }
    }
}

/// The built-in list (`BuiltInFoods`), searched exactly as devices search it offline. Never fails.
public struct BuiltInFoodProvider: FoodSearchProvider {
    public let name = "built-in list"
    public let source = FoodSearchSource.builtin
    private let index: BuiltInFoodSearch

    public init(index: BuiltInFoodSearch = .standard) { self.index = index }

    public func search(_ query: String, limit: Int) async throws -> [Food] { foods(query, limit: limit) }

    /// The same, for callers that know it cannot fail.
    public func foods(_ query: String, limit: Int) -> [Food] { index.search(query, limit: limit) }
}
