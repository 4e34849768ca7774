import Foundation
import KithCore

/// What a device keeps to stay signed in across restarts.
public struct StoredSession: Codable, Sendable, Equatable {
    public var serverURL: URL
    public var user: UserDTO
    public var accessToken: String
    public var refreshToken: String
    public var accessExpiresAt: Date

    public init(serverURL: URL, user: UserDTO, accessToken: String, refreshToken: String, accessExpiresAt: Date) {
        self.serverURL = serverURL
        self.user = user
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessExpiresAt = accessExpiresAt
    }
}

/// The device tokens a server gave this device at sign-in, by account email. Sent with later
/// sign-ins, they let the device in when others' failed attempts have locked the email; kept
/// across sign-outs (a password reset makes them worthless).
public struct DeviceTokens: Codable, Sendable, Equatable {
    public var byEmail: [String: String]

    public init(byEmail: [String: String] = [:]) { self.byEmail = byEmail }
}

/// A secret a device keeps between launches (a Kith session, a Monica token): the Keychain on
/// Apple platforms, a 0600 file elsewhere, memory in tests.
public protocol SecretStore<Secret>: Sendable {
    associatedtype Secret: Codable & Sendable
    func load() throws -> Secret?
    func save(_ secret: Secret) throws
    func clear() throws
}

/// Where the Kith session lives between launches.
public protocol SessionStore: SecretStore where Secret == StoredSession {}

/// Keeps a secret in memory only: for previews, tests and one-shot scripts.
public final class InMemorySecretStore<Secret: Codable & Sendable>: SecretStore, @unchecked Sendable {
    private let lock = NSLock()
    private var secret: Secret?

    public init(_ secret: Secret? = nil) { self.secret = secret }

    public func load() throws -> Secret? { lock.withLock { secret } }
    public func save(_ secret: Secret) throws { lock.withLock { self.secret = secret } }
    public func clear() throws { lock.withLock { secret = nil } }
}

extension InMemorySecretStore: SessionStore where Secret == StoredSession {}
public typealias InMemorySessionStore = InMemorySecretStore<StoredSession>
