import Hummingbird
import KithCore

/// Refuses a declared oversized body before anything reads it.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    /// The largest body a request may declare; the same for every request unless a router
    /// takes larger ones somewhere (files).
    var limit: @Sendable (Request) -> Int = { _ in SyncLimits.largestBody }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit(request) {
            throw AppError.payloadTooLarge
        }
        return try await next(request, context)
    }
}
