import Foundation
import Hummingbird
import KithCore
import Logging
import NIOCore

/// Turns every error a request ends with into the wire error body, so no request answers with
/// internals, and logs the unexpected ones (the 5xx) with the request id.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as AppError {
            return render(error)
        } catch let error as HTTPError {
            return render(Self.translate(error))
        } catch is NIOTooManyBytesError {
            return render(.payloadTooLarge)
        } catch {
            context.logger.error("request failed: \(String(reflecting: error))")
            return render(AppError(.internalServerError, .internalError, "Something went wrong on the server. Try again."))
        }
    }

    private func render(_ error: AppError) -> Response {
        (try? JSONResponse.make(APIErrorBody(error.detail), status: error.status, headers: error.headers))
            ?? Response(status: .internalServerError)
    }

    static func translate(_ error: HTTPError) -> AppError {
        switch error.status {
        case .notFound: AppError(.notFound, .notFound, "There is nothing at this address.")
        case .methodNotAllowed: AppError(.methodNotAllowed, .methodNotAllowed, "This address does not accept that method.")
        case .contentTooLarge: .payloadTooLarge
        case .unauthorized: .unauthorized
        default:
            AppError(
                error.status, .badRequest,
                error.body ?? "The request could not be handled (\(error.status.code) \(error.status.reasonPhrase)).")
        }
    }
}

/// Refuses a declared oversized body before anything reads it.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > HTTPLimits.maxBodyBytes {
            throw AppError.payloadTooLarge
        }
        return try await next(request, context)
    }
}

/// Echoes the request id so a person reporting a problem can quote it, and it matches the logs.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        response.headers[.init("X-Request-ID")!] = context.id
        return response
    }
}
