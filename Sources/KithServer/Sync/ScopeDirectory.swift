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
}

struct PersonalScopeDirectory: ScopeDirectory {
    func memberships(userID: String) async throws -> [ScopeMembership] {
        [ScopeMembership(scope: "user:\(userID)", role: nil)]
    }
}
