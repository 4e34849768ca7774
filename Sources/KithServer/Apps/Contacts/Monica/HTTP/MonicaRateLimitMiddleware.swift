import Foundation
import Hummingbird
import KithCore

/// Counts every `/api` request authenticated by a token and puts `X-RateLimit-*` on every answer, errors
/// included; over the limit, answers 429 code 34 with `Retry-After`.
struct MonicaRateLimitMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let limiter: MonicaRateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        // The web app's own pages are not an API client (docs/decisions.md 29).
        if context.isWebSessionRequest { return try await next(request, context) }
        let key = try context.requireUser().id.lowercased
        let verdict = limiter.hit(key)
        var headers: HTTPFields = [:]
        headers[.rateLimitLimit] = String(verdict.limit)
        headers[.rateLimitRemaining] = String(verdict.remaining)
        guard verdict.allowed else {
            headers[.retryAfter] = String(verdict.retryAfter)
            headers[.rateLimitReset] = String(verdict.resetAt)
            return MonicaError.tooManyAttempts(headers: headers).response
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            guard let monica = MonicaError.from(error) else { throw error }
            response = monica.response
        }
        for field in headers { response.headers[field.name] = field.value }
        return response
    }
}
