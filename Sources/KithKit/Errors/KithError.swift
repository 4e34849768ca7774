import Foundation
import KithCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every failure KithKit reports, each with a sentence to show a person and whether trying again
/// can help.
public enum KithError: Error, Equatable, Sendable {
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

    /// Whether the same request may succeed later without the user changing anything.
    public var isRetryable: Bool {
        switch self {
        case .offline, .timeout: true
        case .server(let status, _): status >= 500 || status == 429
        default: false
        }
    }
}

extension KithError: LocalizedError {
    public var errorDescription: String? { userMessage }
}
