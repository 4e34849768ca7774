import Hummingbird
import KithCore

/// Refuses a declared oversized body before anything reads it.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > SyncLimits.largestBody {
            throw AppError.payloadTooLarge
        }
        return try await next(request, context)
    }
}
