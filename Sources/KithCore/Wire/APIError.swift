import Foundation

/// The one error shape every `/v1` route answers with:
/// `{"error":{"code":"snake_case","message":"human text","field":"name"}}`.
public struct APIErrorBody: Codable, Sendable, Equatable {
    public var error: APIErrorDetail

    public init(_ error: APIErrorDetail) { self.error = error }
}

public struct APIErrorDetail: Codable, Sendable, Equatable, Error {
    /// A stable machine-readable code; see `ErrorCode`.
    public var code: String
    /// A sentence a person can read.
    public var message: String
    /// The input at fault, when exactly one is.
    public var field: String?

    public init(code: String, message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    public init(_ code: ErrorCode, _ message: String, field: String? = nil) {
        self.init(code: code.rawValue, message: message, field: field)
    }
}

/// Every error code that crosses the wire. Clients switch on these, so they never change meaning.
public enum ErrorCode: String, Codable, Sendable, CaseIterable {
    case badRequest = "bad_request"
    case invalidEmail = "invalid_email"
    case weakPassword = "weak_password"
    case passwordTooLong = "password_too_long"
    case emailTaken = "email_taken"
    case invalidCredentials = "invalid_credentials"
    case tooManyAttempts = "too_many_attempts"
    case unauthorized = "unauthorized"
    case tokenExpired = "token_expired"
    case invalidToken = "invalid_token"
    case validationFailed = "validation_failed"
    case notFound = "not_found"
    case payloadTooLarge = "payload_too_large"
    case methodNotAllowed = "method_not_allowed"
    case csrfFailed = "csrf_failed"
    case internalError = "internal_error"
    /// The server's disk is full: nothing was written; try again later (503).
    case storageFull = "storage_full"
    case forbidden = "forbidden"
    /// Families (docs/family.md): one family per user, at least one parent, join codes.
    case alreadyInFamily = "already_in_family"
    case notInFamily = "not_in_family"
    case lastParent = "last_parent"
    case invalidJoinCode = "invalid_join_code"
}
