import Foundation
import KithCore

/// Scopes from the membership table: the user's own, plus their family's with their role. Read
/// on every request, never cached, so servers sharing one database agree at once on who is in: by
/// the session's lookup when a session authenticated the request (`AuthenticatedUser.family`),
/// else here.
struct FamilyScopeDirectory: ScopeDirectory {
    let database: KithDatabase

    func memberships(userID: String) async throws -> [ScopeMembership] {
        let member = try await database.read { try await FamilyTables(sql: $0).membership(of: userID) }
        return Self.memberships(
            userID: userID, family: member.map { FamilyLookup(familyID: $0.familyID, role: $0.role) })
    }

    func memberships(of user: AuthenticatedUser) async throws -> [ScopeMembership] {
        guard let family = user.family else { return try await memberships(userID: user.id.lowercased) }
        return Self.memberships(userID: user.id.lowercased, family: family)
    }

    private static func memberships(userID: String, family: FamilyLookup?) -> [ScopeMembership] {
        let own = ScopeMembership(scope: "user:\(userID)", role: nil)
        guard let familyID = family?.familyID, let role = family?.role else { return [own] }
        return [own, ScopeMembership(scope: FamilyRow.scope(of: familyID), role: role)]
    }
}
