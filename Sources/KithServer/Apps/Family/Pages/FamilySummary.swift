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
    /// The role they may be given instead.
    let otherRole: String
    /// Offered only when `FamilyMembershipRules` would accept it from the reader, as the server
    /// decides (a child is offered neither; the last parent can't become a child).
    let mayChangeRole: Bool
    let mayRemove: Bool
    /// Whether the reader is offered anything about them (stored: templates read stored values).
    let hasActions: Bool

    /// The family's members, parents first, as the snapshot lists them.
    static func all(_ snapshot: FamilySnapshot) -> [MemberListItem] {
        let ruled = snapshot.family.members.map {
            FamilyMembershipRules.Member(id: $0.userId, isParent: $0.role == .parent)
        }
        func allowed(_ change: FamilyMembershipRules.Change, _ id: String) -> Bool {
            FamilyMembershipRules.refusal(change, to: id, by: snapshot.me, members: ruled) == nil
        }
        return snapshot.family.members.map { member in
            let id = member.userId.lowercased()
            let otherRole: FamilyRole = member.role == .parent ? .child : .parent
            return MemberListItem(
                id: id, name: member.displayName, email: member.email, role: member.role.rawValue,
                roleLabel: member.role == .parent ? "Parent" : "Child", isParent: member.role == .parent,
                isMe: id == snapshot.me, otherRole: otherRole.rawValue,
                mayChangeRole: allowed(.role(otherRole), id), mayRemove: allowed(.remove, id),
                hasActions: allowed(.role(otherRole), id) || allowed(.remove, id))
        }
    }
}
