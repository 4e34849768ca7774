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
        UserDTO(id: UUID(text: id) ?? .zero, email: email, createdAt: Date(epochMillis: createdAt))
    }
}

struct PersonalTokenRecord: Sendable, Codable, Equatable {
    var id: String
    var userID: String
    var name: String
    var createdAt: Int64
    var lastUsedAt: Int64?
    var expiresAt: Int64?
    var origin: PersonalTokenOrigin

    enum CodingKeys: String, CodingKey {
        case id, name, origin
        case userID = "user_id"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case expiresAt = "expires_at"
    }

    func dto(token: String? = nil) -> PersonalTokenDTO {
        PersonalTokenDTO(
            id: UUID(text: id) ?? .zero, name: name, token: token, createdAt: Date(epochMillis: createdAt),
            lastUsedAt: lastUsedAt.map(Date.init(epochMillis:)), expiresAt: expiresAt.map(Date.init(epochMillis:)))
    }
}

/// How a personal access token came to be, which decides what ends it.
enum PersonalTokenOrigin: String, Sendable, Codable {
    /// Made by the person (account page, `/v1/tokens`, `kith account tokens create`), for a
    /// script: a password change keeps it; a reset ends it.
    case user
    /// Made by an app's sign-in with the password (Monica's `/oauth/login`): a password change
    /// ends it, as it ends the other sign-ins.
    case signIn = "sign-in"
}

/// Where a sign-in attempt comes from, for throttling: the client's address and, if the device
/// signed in to the account before, the device token it was given then.
struct SignInOrigin: Sendable {
    var address: String
    var deviceToken: String?

    init(address: String, deviceToken: String? = nil) {
        self.address = address
        self.deviceToken = deviceToken.flatMap { $0.isEmpty ? nil : $0 }
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
    /// The user's Monica account as authentication found it along with a personal token (nil:
    /// not read, or not made yet); `/api` reads it only when this is nil.
    var monicaAccount: MonicaAccount?
    /// The user's family membership as authentication found it along with a session (nil: not
    /// read, as with a personal token); `FamilyScopeDirectory` reads it only when this is nil.
    var family: FamilyLookup?

    var dto: UserDTO { UserDTO(id: id, email: email, createdAt: createdAt) }
}

/// Which family a user is in and as what, as one read found it (`familyID` nil: in none).
struct FamilyLookup: Sendable, Equatable {
    var familyID: String?
    var role: String?
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
    /// After a sign-up or sign-in, the device's token for later sign-ins (nil after a refresh).
    var deviceToken: String? = nil
}

/// A row of some `Columns` joined with its user's row (`… u.* FROM … JOIN users u`): what
/// authentication looks up, a session or a token with its owner, in one statement. The columns
/// read as the row's own properties (`lookup.sessionID`).
@dynamicMemberLookup
struct WithUser<Columns: Decodable & Sendable>: Decodable, Sendable {
    let columns: Columns
    let user: UserRecord

    init(from decoder: any Decoder) throws {
        columns = try Columns(from: decoder)
        user = try UserRecord(from: decoder)
    }

    subscript<Value>(dynamicMember keyPath: KeyPath<Columns, Value>) -> Value { columns[keyPath: keyPath] }
}

extension AuthenticatedUser {
    /// The user's own scope of synced records (`user:<id>`).
    var scope: String { "user:" + id.lowercased }
}
