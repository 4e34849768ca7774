import Foundation
import KithCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A failure of the Kith server, of sync or of this device's store, with a sentence to show a person
/// (`UserFacingError`, which every KithKit error conforms to, so one `catch` handles them all).
public enum KithError: UserFacingError, Equatable {
    /// The server could not be reached (no network, server down, DNS).
    case offline
    /// The server took longer than the transport's timeout.
    case timeout
    /// The stored session ended (expired, revoked, password changed elsewhere): sign in again.
    case sessionExpired
    /// An operation needs a signed-in user and there is none.
    case notSignedIn
    /// The server refused the request with its wire error.
    case server(status: Int, APIErrorDetail)
    /// The server answered something KithKit does not understand.
    case invalidResponse(String)
    /// Local storage failed (session file, keychain, local database).
    case storage(String)
    /// A change made on this device breaks a rule of its data (checked before anything is stored).
    case invalid(APIErrorDetail)

    init(transportError error: URLError) {
        switch error.code {
        case .timedOut: self = .timeout
        default: self = .offline
        }
    }

    /// The machine-readable code from the server, when there is one.
    public var code: ErrorCode? {
        switch self {
        case .server(_, let detail), .invalid(let detail): return ErrorCode(rawValue: detail.code)
        default: return nil
        }
    }

    /// The input at fault, for showing the message next to it.
    public var field: String? {
        switch self {
        case .server(_, let detail), .invalid(let detail): return detail.field
        default: return nil
        }
    }

    public var userMessage: String {
        switch self {
        case .offline: "Cannot connect. Check your internet and try again."
        case .timeout: "The server took too long to answer. Try again."
        case .sessionExpired: "Your session expired. Please sign in again."
        case .notSignedIn: "You are not signed in."
        case .server(let status, let detail):
            status >= 500 ? "The server is having trouble. Please try again." : detail.message
        case .invalidResponse: "The server sent an answer this app does not understand."
        case .storage(let reason): "Could not save on this device: \(reason)"
        case .invalid(let detail): detail.message
        }
    }

    public var kind: ErrorKind {
        switch self {
        case .offline, .timeout: .unreachable
        case .sessionExpired, .notSignedIn: .signedOut
        case .server(let status, let detail):
            switch status {
            case 500...: .serverTrouble
            case 429: .rateLimited
            case 404: .notFound
            // A mistyped password is refused input; any other 401 means the session is gone.
            case 401: detail.code == ErrorCode.invalidCredentials.rawValue ? .invalid : .signedOut
            default: .invalid
            }
        case .invalid(let detail): detail.code == ErrorCode.notFound.rawValue ? .notFound : .invalid
        case .invalidResponse: .invalidResponse
        case .storage: .storage
        }
    }

    public var identifier: String {
        switch self {
        case .offline: "offline"
        case .timeout: "timeout"
        case .sessionExpired: "session_expired"
        case .notSignedIn: "not_signed_in"
        case .server(_, let detail), .invalid(let detail): detail.code
        case .invalidResponse: "invalid_response"
        case .storage: "storage"
        }
    }
}

extension KithError {
    /// Refuses `value` outside `range` before anything is sent or written, as the server would:
    /// `validation_failed` on `field`, with `message`.
    static func check<Value: Comparable>(
        _ value: Value, in range: ClosedRange<Value>, field: String, _ message: @autoclosure () -> String
    ) throws {
        guard range.contains(value) else {
            throw KithError.invalid(APIErrorDetail(.validationFailed, message(), field: field))
        }
    }
}
