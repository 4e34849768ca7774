import AsyncHTTPClient
import Foundation
import KithCore
import Logging

/// Asks the configured providers in order (FatSecret, Open Food Facts, then the built-in list) and
/// answers with the first that answers in time, saying which it was. A provider that fails or
/// times out is logged and the next one asked; the built-in list always answers.
public struct FoodSearchService: Sendable {
    /// The providers over the network, in the order they are asked.
    let remote: [any FoodSearchProvider]
    /// Answers when none of them does.
    let builtIn = BuiltInFoodProvider()
    let timeout: Duration
    let logger: Logger

    /// `remote`: the providers to ask, in order, before the built-in list.
    public init(remote: [any FoodSearchProvider], timeout: Duration, logger: Logger) {
        self.remote = remote
        self.timeout = timeout
        self.logger = logger
    }

    /// The providers `settings` configures, over `client`.
    init(settings: FoodSearchSettings, client: HTTPClient, userAgent: String, clock: Clock, logger: Logger) {
        var providers: [any FoodSearchProvider] = []
        if let fatSecret = settings.fatSecret {
            providers.append(
                FatSecretProvider(
                    settings: fatSecret, client: client, userAgent: userAgent, timeout: settings.timeout, clock: clock))
        }
        if let openFoodFacts = settings.openFoodFacts {
            providers.append(
                OpenFoodFactsProvider(
                    settings: openFoodFacts, client: client, userAgent: userAgent, timeout: settings.timeout))
        }
        self.init(remote: providers, timeout: settings.timeout, logger: logger)
    }

    /// The names of the providers asked, in order, for logs at start-up.
    public var providerNames: [String] { remote.map(\.name) + [builtIn.name] }

    /// `query` trimmed and within `FoodSearchLimits`, `limit` within its range.
    public func search(_ query: String, limit: Int) async -> FoodSearchResponse {
        for provider in remote {
            do {
                let foods = try await Self.withTimeout(timeout, provider: provider.name) {
                    try await provider.search(query, limit: limit)
                }
                return FoodSearchResponse(source: provider.source, foods: Self.loggable(foods, limit: limit))
            } catch {
                logger.warning("food search fell back from \(provider.name)", metadata: ["reason": "\(error)"])
            }
        }
        return FoodSearchResponse(source: builtIn.source, foods: builtIn.foods(query, limit: limit))
    }

    /// The foods an item can be logged with as they are (within `NutritionEntities`' limits), at most `limit`.
    static func loggable(_ foods: [Food], limit: Int) -> [Food] {
        foods.filter { NutritionFields.problems(with: $0).isEmpty }.prefix(limit).map { $0 }
    }

    /// `operation`'s result, or `FoodSearchProviderError.timedOut` once `timeout` has passed (the
    /// operation is then cancelled).
    static func withTimeout<Value: Sendable>(
        _ timeout: Duration, provider: String, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw FoodSearchProviderError.timedOut(provider: provider, after: timeout)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else {
                throw FoodSearchProviderError.timedOut(provider: provider, after: timeout)
            }
            return first
        }
    }
}
