import Foundation

/// Wire shapes of `/v1/auth`, `/v1/me` and `/v1/tokens`: one definition for server and clients.
public struct UserDTO: Codable, Sendable, Equatable {
    @LowercaseUUID public var id: UUID
    public var email: String
    public var createdAt: Date

    public init(id: UUID, email: String, createdAt: Date) {
        self.id = id
        self.email = email
        self.createdAt = createdAt
    }
}

public struct CredentialsRequest: Codable, Sendable {
    public var email: String
    public var password: String
    /// The `deviceToken` an earlier sign-in to this account gave this device: with it, failed
    /// attempts by others on the same email do not lock the device out.
    public var deviceToken: String?

    public init(email: String, password: String, deviceToken: String? = nil) {
        self.email = email
        self.password = password
        self.deviceToken = deviceToken
    }
}

public struct AuthSessionResponse: Codable, Sendable, Equatable {
    public var user: UserDTO
    public var accessToken: String
    public var refreshToken: String
    /// Seconds until `accessToken` expires.
    public var expiresIn: Int
    /// After a sign-up or sign-in: this device's token for the account (`kdv_…`), to send with later
    /// sign-ins. It survives sign-out; a password reset ends it.
    public var deviceToken: String?

    public init(user: UserDTO, accessToken: String, refreshToken: String, expiresIn: Int, deviceToken: String? = nil) {
        self.user = user
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.deviceToken = deviceToken
    }
}

public struct RefreshRequest: Codable, Sendable {
    public var refreshToken: String
    public init(refreshToken: String) { self.refreshToken = refreshToken }
}

public struct ChangePasswordRequest: Codable, Sendable {
    public var currentPassword: String
    public var newPassword: String

    public init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }
}

public struct PasswordResetRequest: Codable, Sendable {
    public var email: String
    public init(email: String) { self.email = email }
}

public struct PasswordResetConfirmRequest: Codable, Sendable {
    public var token: String
    public var newPassword: String

    public init(token: String, newPassword: String) {
        self.token = token
        self.newPassword = newPassword
    }
}

public struct DeleteAccountRequest: Codable, Sendable {
    public var password: String
    public init(password: String) { self.password = password }
}

public struct CreateTokenRequest: Codable, Sendable {
    public var name: String
    public init(name: String) { self.name = name }
}

/// A personal access token as listed; `token` is present only in the answer that created it.
public struct PersonalTokenDTO: Codable, Sendable, Equatable {
    @LowercaseUUID public var id: UUID
    public var name: String
    public var token: String?
    public var createdAt: Date
    public var lastUsedAt: Date?
    /// Tokens made by an app's sign-in (Monica's `/oauth/login`) expire; those made by hand do not.
    public var expiresAt: Date?

    public init(
        id: UUID, name: String, token: String? = nil, createdAt: Date, lastUsedAt: Date? = nil, expiresAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.token = token
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
    }
}

public struct PersonalTokenList: Codable, Sendable, Equatable {
    public var tokens: [PersonalTokenDTO]
    public init(tokens: [PersonalTokenDTO]) { self.tokens = tokens }
}
