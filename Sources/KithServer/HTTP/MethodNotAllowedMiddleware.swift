import Hummingbird

/// Turns the router's 404 for an address that exists into 405 with `Allow`, the methods it takes.
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let table: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = table.methods(at: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            // Laravel's wording, which `/api` answers as it is.
            throw HTTPError(
                .methodNotAllowed, headers: [.allow: allow],
                message: "The \(request.method.rawValue) method is not supported for this route. Supported methods: \(allow).")
        }
    }
}
