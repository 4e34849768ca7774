import Hummingbird

/// Hands every request under some path prefixes to another router, whole: that router's own
/// middleware (its error shapes, its authentication) and its own "no such route" apply there.
/// How Monica's `/api` lives beside `/v1` without the core knowing its shapes.
struct MountMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let prefixes: [String]
    let responder: any HTTPResponder<AppRequestContext>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let path = request.uri.path
        guard prefixes.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) else {
            return try await next(request, context)
        }
        return try await responder.respond(to: request, context: context)
    }
}
