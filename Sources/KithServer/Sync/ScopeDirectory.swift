import Foundation

/// A scope a user can read and write, with the user's role there (families have roles such as
/// "parent" and "child"; one's own scope has none).
struct ScopeMembership: Sendable, Hashable {
    let scope: String
    let role: String?
}

/// Where `SyncRules` learns which scopes a user belongs to: `FamilyScopeDirectory` on a server,
/// `PersonalScopeDirectory` where only one's own scope exists.
protocol ScopeDirectory: Sendable {
    func memberships(userID: String) async throws -> [ScopeMembership]
    /// The same for an authenticated user, from what authentication found where it can.
    func memberships(of user: AuthenticatedUser) async throws -> [ScopeMembership]
}

extension ScopeDirectory {
    func memberships(of user: AuthenticatedUser) async throws -> [ScopeMembership] {
        try await memberships(userID: user.id.lowercased)
    }
}

struct PersonalScopeDirectory: ScopeDirectory {
    func memberships(userID: String) async throws -> [ScopeMembership] {
        [ScopeMembership(scope: "user:\(userID)", role: nil)]
    }
}
