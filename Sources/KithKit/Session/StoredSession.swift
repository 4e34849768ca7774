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

/// Where the session lives between launches: the Keychain on Apple platforms, a 0600 file elsewhere.
public protocol SessionStore: Sendable {
    func load() throws -> StoredSession?
    func save(_ session: StoredSession) throws
    func clear() throws
}

/// Keeps the session in memory only: for previews, tests and one-shot scripts.
public final class InMemorySessionStore: SessionStore, @unchecked Sendable {
    private let lock = NSLock()
    private var session: StoredSession?

    public init(_ session: StoredSession? = nil) { self.session = session }

    public func load() throws -> StoredSession? { lock.withLock { session } }
    public func save(_ session: StoredSession) throws { lock.withLock { self.session = session } }
    public func clear() throws { lock.withLock { session = nil } }
}
