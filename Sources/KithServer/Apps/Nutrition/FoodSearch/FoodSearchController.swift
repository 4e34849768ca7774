import Foundation
import Hummingbird
import KithCore

/// `GET /v1/food/search?q=&limit=`: food search for a signed-in user (bearer token, or the web
/// session on the web pages), through the configured providers (`FoodSearchService`). The
/// providers' keys and quotas are the server's, so each user has a number of searches per minute.
struct FoodSearchController {
    let accounts: AccountService
    let service: FoodSearchService
    let limiter: MonicaRateLimiter

    func addRoutes(to router: Router<AppRequestContext>) {
        router.group().add(middleware: ReadAuthMiddleware(accounts: accounts))
            .on(KithAPI.Food.search, use: search)
    }

    @Sendable func search(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let parameters = request.uri.formQuery
        guard let rawQuery = parameters.get("q") else {
            throw AppError(.badRequest, .badRequest, "Say what to search for with ?q=.", field: "q")
        }
        let query: String
        switch FoodSearchLimits.checkedQuery(rawQuery) {
        case .success(let trimmed): query = trimmed
        case .failure(let problem): throw AppError.validation(problem)
        }
        var limit = FoodSearchLimits.defaultLimit
        if let rawLimit = parameters.get("limit") {
            guard let number = Int(rawLimit) else {
                throw AppError(.badRequest, .badRequest, "The limit must be a whole number.", field: "limit")
            }
            if let problem = FoodSearchLimits.problem(withLimit: number) { throw AppError.validation(problem) }
            limit = number
        }
        let verdict = limiter.hit(user.id.lowercased)
        guard verdict.allowed else {
            throw AppError(
                .tooManyRequests, .tooManyAttempts,
                "Too many food searches. Try again in \(verdict.retryAfter) seconds.",
                headers: [.retryAfter: String(verdict.retryAfter)])
        }
        return try JSONResponse.make(await service.search(query, limit: limit))
    }
}
