import Foundation

/// Everything a Monica client and the contacts cache can meet, each with the sentence a person
/// is shown (`UserFacingError`, which every KithKit error conforms to, so one `catch`
/// handles them all).
public enum MonicaClientError: UserFacingError, Equatable {
    /// No network, or the server is down.
    case offline
    /// No answer within the transport's timeout (10 s by default).
    case timeout
    /// The token was refused while checking it: nothing was saved.
    case invalidToken
    /// The server stopped accepting the saved token (401): this device is signed out.
    case signedOut
    /// 429: Monica allows 60 requests a minute. `retryAfter` is in seconds when the server said.
    case rateLimited(retryAfter: Int?)
    /// 5xx.
    case serverTrouble(status: Int)
    /// 404: the object does not exist or belongs to someone else.
    case notFound
    /// 422 and other refusals, with Monica's messages.
    case rejected(status: Int, messages: [String])
    /// The server answered something that is not Monica's JSON.
    case invalidResponse(String)
    /// An address that is not a usable URL.
    case invalidAddress(String)
    /// `http://` to another machine.
    case insecureAddress
    /// Nothing is connected on this device.
    case notConnected
    /// An edit made on this device breaks a rule (checked before anything is stored or sent).
    case invalid(String)
    /// The device's cache failed.
    case storage(String)

    public var userMessage: String {
        switch self {
        case .offline: "Cannot connect. Check your internet and try again."
        case .timeout: "Monica took too long to answer. Please try again."
        case .invalidToken: "This API token is invalid or expired."
        case .signedOut: "Your session expired. Please log in again."
        case .rateLimited: "Too many requests. Please wait a moment."
        case .serverTrouble: "Monica is having trouble. Please try again."
        case .notFound: "This was not found. It may have been deleted."
        case .rejected(_, let messages):
            messages.isEmpty ? "Monica refused the change." : messages.joined(separator: " ")
        case .invalidResponse: "Monica sent an answer this app does not understand."
        case .invalidAddress(let text): "\"\(text)\" is not a server address. Use one like https://monica.example.com."
        case .insecureAddress: "Use an https:// address: http:// is only allowed for a server on this computer."
        case .notConnected: "Connect to a Monica server first."
        case .invalid(let message): message
        case .storage(let reason): "Could not save on this device: \(reason)"
        }
    }

    public var kind: ErrorKind {
        switch self {
        case .offline, .timeout: .unreachable
        case .signedOut, .notConnected: .signedOut
        case .rateLimited: .rateLimited
        case .serverTrouble: .serverTrouble
        case .notFound: .notFound
        case .invalidToken, .rejected, .invalidAddress, .insecureAddress, .invalid: .invalid
        case .invalidResponse: .invalidResponse
        case .storage: .storage
        }
    }

    public var identifier: String {
        switch self {
        case .offline: "offline"
        case .timeout: "timeout"
        case .invalidToken: "invalid_token"
        case .signedOut: "signed_out"
        case .rateLimited: "rate_limited"
        case .serverTrouble: "server_trouble"
        case .notFound: "not_found"
        case .rejected: "rejected"
        case .invalidResponse: "invalid_response"
        case .invalidAddress: "invalid_address"
        case .insecureAddress: "insecure_address"
        case .notConnected: "not_connected"
        case .invalid: "invalid"
        case .storage: "storage"
        }
    }
}

extension MonicaClientError {
    /// A transport's failure, or a Kith session's (when the token is a Kith access token), as the
    /// Monica client reports it: offline stays offline, so a cache can still answer.
    public init(_ error: KithError) {
        switch error {
        case .offline: self = .offline
        case .timeout: self = .timeout
        case .sessionExpired, .notSignedIn: self = .signedOut
        case .server(let status, _) where status >= 500: self = .serverTrouble(status: status)
        case .server(429, _): self = .rateLimited(retryAfter: nil)
        case .invalidResponse(let reason): self = .invalidResponse(reason)
        case .storage(let reason): self = .storage(reason)
        default: self = .invalid(error.userMessage)
        }
    }
}
