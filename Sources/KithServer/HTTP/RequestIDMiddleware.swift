import Hummingbird

/// Echoes the request id so a person reporting a problem can quote it, and it matches the logs.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        response.headers[.requestID] = context.id
        return response
    }
}
