import Foundation
import Hummingbird
import KithCore
import Logging
import NIOCore
import NIOHTTP1

/// Turns every error a request ends with into the wire error body, so no request answers with
/// internals, and logs the unexpected ones (the 5xx) with the request id.
/// A browser asking for a page (not `/v1`, HTML accepted) gets the error as a page instead.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let renderer: WebRenderer
    /// Who is signed in, for an error page outside the pages' own middleware (a 404 at an
    /// address no route has keeps the signed-in header).
    let session: WebSessionMiddleware

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let error: AppError
        do {
            return try await next(request, context)
        } catch let thrown as AppError {
            error = thrown
        } catch let thrown as HTTPError {
            error = Self.translate(thrown)
        } catch is StorageFullError {
            error = .storageFull
        } catch is NIOTooManyBytesError {
            error = .payloadTooLarge
        } catch is HTTPParserError {
            // A body that stopped being valid HTTP part way (a bad chunk size).
            error = AppError(.badRequest, .badRequest, "The request is not valid HTTP.")
        } catch {
            context.logger.error("request failed: \(String(reflecting: error))")
            return await render(
                AppError(.internalServerError, .internalError, "Something went wrong on the server. Try again."),
                for: request, context: context)
        }
        if error.status.code >= 500 { context.logger.error("request failed: \(error.detail.message)") }
        return await render(error, for: request, context: context)
    }

    private func render(_ error: AppError, for request: Request, context: Context) async -> Response {
        if Self.wantsPage(request) {
            var signedIn = context
            if context.user == nil, let identified = try? await session.identify(request, context) {
                signedIn = identified.context
            }
            if let page = try? renderer.errorPage(error, context: signedIn) { return page }
        }
        return (try? JSONResponse.make(APIErrorBody(error.detail), status: error.status, headers: error.headers))
            ?? Response(status: .internalServerError)
    }

    static func wantsPage(_ request: Request) -> Bool {
        !request.uri.path.hasPrefix("/v1") && request.headers[.accept]?.contains("text/html") == true
    }

    static func translate(_ error: HTTPError) -> AppError {
        switch error.status {
        case .notFound: AppError(.notFound, .notFound, "There is nothing at this address.")
        case .methodNotAllowed:
            AppError(
                .methodNotAllowed, .methodNotAllowed,
                "This address does not accept that method"
                    + (error.headers[.allow].map { "; it takes \($0)." } ?? "."), headers: error.headers)
        case .contentTooLarge: .payloadTooLarge
        case .unauthorized: .unauthorized
        default:
            AppError(
                error.status, .badRequest,
                error.body ?? "The request could not be handled (\(error.status.code) \(error.status.reasonPhrase)).")
        }
    }
}
