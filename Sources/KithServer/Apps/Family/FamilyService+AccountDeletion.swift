import Foundation

extension FamilyService {
    /// Why the account of `userID` can't be deleted yet, said before the person tries: they are
    /// the only parent of a family with other members, which would be left with no parent (account
    /// deletion leaves the family first, and that is refused). Nil when nothing stands in the way.
    func accountDeletionBlocker(userID: String) async throws -> AccountDeletionBlocker? {
        try await database.read { sql in
            let tables = FamilyTables(sql: sql)
            guard let me = try await tables.membership(of: userID), me.isParent,
                let family = try await tables.family(me.familyID)
            else { return nil }
            let others = try await tables.members(of: me.familyID).filter { $0.userID != me.userID }
            guard !others.isEmpty, !others.contains(where: \.isParent) else { return nil }
            return AccountDeletionBlocker(
                reason:
                    "You are the only parent of \(family.name), so deleting your account would leave \(others.count == 1 ? "its other member" : "its \(others.count) other members") without a parent.",
                wayOut: "Make another member a parent, or remove the others, on the family's members page first.",
                address: "/family/members", label: "Go to the members")
        }
    }
}
