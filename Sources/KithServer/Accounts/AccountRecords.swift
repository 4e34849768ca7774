import Foundation
import KithCore

/// Rows of the account tables, as the repository returns them. Separate from the wire DTOs.
struct UserRecord: Sendable, Codable, Equatable {
    var id: String
    var email: String
    var passwordHash: String
    var createdAt: Int64
    var passwordChangedAt: Int64

    enum CodingKeys: String, CodingKey {
        case id, email
        case passwordHash = "password_hash"
        case createdAt = "created_at"
        case passwordChangedAt = "password_changed_at"
    }

    var dto: UserDTO {
        UserDTO(id: UUID(uuidString: id) ?? UUID(), email: email, createdAt: Clock.date(millis: createdAt))
    }
}

struct PersonalTokenRecord: Sendable, Codable, Equatable {
    var id: String
    var userID: String
    var name: String
    var createdAt: Int64
    var lastUsedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, name
        case userID = "user_id"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
    }

    func dto(token: String? = nil) -> PersonalTokenDTO {
        PersonalTokenDTO(
            id: UUID(uuidString: id) ?? UUID(), name: name, token: token, createdAt: Clock.date(millis: createdAt),
            lastUsedAt: lastUsedAt.map(Clock.date(millis:)))
    }
}

/// Who a request acts for, once its bearer token or session cookie checked out.
public struct AuthenticatedUser: Sendable, Equatable {
    public var id: UUID
    public var email: String
    public var createdAt: Date
    /// The session behind the request; nil when a personal access token authenticated it.
    public var sessionID: String?
    public var personalTokenID: String?

    var dto: UserDTO { UserDTO(id: id, email: email, createdAt: createdAt) }
}

enum SessionKind: String {
    /// An API client: access token + rotating refresh token.
    case app
    /// A browser: one cookie token, no refresh.
    case web
}

/// The secrets handed to a client when a session starts or refreshes; never stored as they are.
struct IssuedSession: Sendable {
    var sessionID: String
    var accessToken: String
    var refreshToken: String?
    var accessExpiresIn: Int
}
