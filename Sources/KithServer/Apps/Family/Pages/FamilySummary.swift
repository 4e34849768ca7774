import Foundation
import KithCore

/// The family and the reader's place in it, as the Family pages name it.
struct FamilySummary {
    let name: String
    let timeZone: String
    let isParent: Bool

    init(_ snapshot: FamilySnapshot) {
        name = snapshot.family.name
        timeZone = snapshot.family.timeZone
        isParent = snapshot.isParent
    }
}

/// A member as the Family pages list them.
struct MemberListItem {
    let id: String
    let name: String
    let email: String
    let role: String
    let roleLabel: String
    let isParent: Bool
    let isMe: Bool
    /// The role a parent may give them instead.
    let otherRole: String
    /// The last parent can't become a child (FamilyService refuses it): not offered.
    let mayChangeRole: Bool

    /// The family's members, parents first, as the snapshot lists them.
    static func all(_ snapshot: FamilySnapshot) -> [MemberListItem] {
        let parents = snapshot.family.members.filter { $0.role == .parent }.count
        return snapshot.family.members.map { member in
            let id = member.userId.lowercased()
            return MemberListItem(
                id: id, name: member.displayName, email: member.email, role: member.role.rawValue,
                roleLabel: member.role == .parent ? "Parent" : "Child", isParent: member.role == .parent,
                isMe: id == snapshot.me, otherRole: member.role == .parent ? "child" : "parent",
                mayChangeRole: member.role == .child || parents > 1)
        }
    }
}
