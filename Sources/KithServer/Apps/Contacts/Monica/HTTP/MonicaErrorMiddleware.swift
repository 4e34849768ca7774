import Hummingbird

/// Everything that goes wrong under `/api` and `/oauth` answers in Monica's shapes (`MonicaError`):
/// Laravel's `{"message"}` for a route that does not exist, the coded envelope for the API's own
/// errors. Unexpected errors are logged and answered "Server Error", without internals.
struct MonicaErrorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let route = request.uri.path.drop { $0 == "/" }
            return MonicaError(.notFound, plain: "The route \(route) could not be found.").response
        } catch {
            guard let known = MonicaError.from(error) else {
                context.logger.error("request failed: \(String(reflecting: error))")
                return MonicaError(.internalServerError, plain: "Server Error").response
            }
            return known.response
        }
    }
}
