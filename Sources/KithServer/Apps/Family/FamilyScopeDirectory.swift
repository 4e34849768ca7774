import Foundation
import KithCore

/// Scopes from the membership table: the user's own, plus their family's with their role. Read
/// on every request, never cached, so servers sharing one database agree at once on who is in.
struct FamilyScopeDirectory: ScopeDirectory {
    let database: KithDatabase

    func memberships(userID: String) async throws -> [ScopeMembership] {
        let own = ScopeMembership(scope: "user:\(userID)", role: nil)
        guard let member = try await database.read({ try await FamilyTables(sql: $0).membership(of: userID) }) else {
            return [own]
        }
        return [own, ScopeMembership(scope: FamilyRow.scope(of: member.familyID), role: member.role)]
    }
}
