import Hummingbird
import KithCore

/// An error a request can end with: an HTTP status plus the wire error body. One middleware renders it.
public struct AppError: Error, Sendable {
    public var status: HTTPResponse.Status
    public var detail: APIErrorDetail
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ detail: APIErrorDetail, headers: HTTPFields = [:]) {
        self.status = status
        self.detail = detail
        self.headers = headers
    }

    public init(
        _ status: HTTPResponse.Status, _ code: ErrorCode, _ message: String, field: String? = nil,
        headers: HTTPFields = [:]
    ) {
        self.init(status, APIErrorDetail(code, message, field: field), headers: headers)
    }

    static func validation(_ detail: APIErrorDetail) -> AppError { AppError(.unprocessableContent, detail) }

    static let unauthorized = AppError(.unauthorized, .unauthorized, "Sign in to continue.")
    static let tokenExpired = AppError(.unauthorized, .tokenExpired, "Your session expired. Refresh it or sign in again.")
    static let invalidCredentials = AppError(.unauthorized, .invalidCredentials, "The email or password is incorrect.")
    static let storageFull = AppError(
        .serviceUnavailable, .storageFull,
        "The server has run out of disk space, so nothing can be saved right now. Nothing was changed; try again later.")
    static func notFound(_ what: String) -> AppError { AppError(.notFound, .notFound, "\(what) was not found.") }
}
