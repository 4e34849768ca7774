import Foundation

/// What an app needs to show and handle any failure KithKit reports: a sentence for the person,
/// what kind of failure it is, and whether trying again can help. Every error KithKit throws
/// conforms (`KithError` for the Kith server, sync and the device's store; `MonicaClientError` for
/// a Monica server and the contacts cache; `GeocodingError`), so an app writes one `catch`:
///
/// ```swift
/// do {
///     try await book.addAddress(address, to: contact.id)
/// } catch let error as any UserFacingError {
///     message = error.userMessage
///     showRetry = error.isRetryable
///     if error.kind == .signedOut { showSignIn() }
/// }
/// ```
///
/// The concrete types stay for code that needs their details (a Kith refusal's `field`, Monica's
/// `rateLimited(retryAfter:)`).
public protocol UserFacingError: LocalizedError, Sendable {
    /// A sentence to show the person, such as "Cannot connect. Check your internet and try again."
    var userMessage: String { get }
    /// What kind of failure this is, for deciding what to do about it.
    var kind: ErrorKind { get }
    /// A stable snake_case name of the failure, for logs and machine-readable output: "offline",
    /// "rate_limited", or a server's own code for its refusals ("duplicate_year", "weak_password").
    var identifier: String { get }
    /// The input at fault, when the server named one, for showing the message next to it.
    var field: String? { get }
}

extension UserFacingError {
    /// Whether the same request may succeed later without the person changing anything: the
    /// server could not be reached, asked to slow down, or had trouble.
    public var isRetryable: Bool { kind.isRetryable }

    public var field: String? { nil }

    public var errorDescription: String? { userMessage }
}

/// The kinds of failure an app handles differently.
public enum ErrorKind: String, Sendable, Hashable, CaseIterable {
    /// The server could not be reached or did not answer in time. The device's data still works
    /// and changes wait; try again later.
    case unreachable
    /// There is no valid session or connection (it expired, was revoked, or never existed): show
    /// the sign-in or connect screen.
    case signedOut
    /// Refused as given: a rule of the data, the person's input, or a credential they typed. Show
    /// the message next to the input; trying again unchanged fails again.
    case invalid
    /// What was asked for does not exist (any more).
    case notFound
    /// The server asked to slow down; try again in a moment.
    case rateLimited
    /// The server failed (5xx); try again later.
    case serverTrouble
    /// This device's storage (database, keychain, files) failed.
    case storage
    /// The server answered something this SDK does not understand (another server or version).
    case invalidResponse

    /// Whether trying again unchanged may succeed.
    public var isRetryable: Bool {
        switch self {
        case .unreachable, .rateLimited, .serverTrouble: true
        case .signedOut, .invalid, .notFound, .storage, .invalidResponse: false
        }
    }
}
