/// Who may change whom in a family, decided once: the server's `FamilyService` refuses by it, and
/// the members page offers a button only when it would accept (as the reminder pages ask
/// `FamilyRules` by trying operations, decision 146). Only parents change roles and remove
/// others; a family always keeps a parent; a person leaves rather than removes themself.
public enum FamilyMembershipRules {
    /// A change one member makes to another.
    public enum Change: Sendable, Equatable {
        case role(FamilyRole)
        case remove
    }

    public enum Refusal: Sendable, Equatable {
        case parentsOnly, noSuchMember, lastParent, removingSelf
    }

    /// A member as the rules read one: who, and whether a parent.
    public struct Member: Sendable, Equatable {
        public let id: String
        public let isParent: Bool

        public init(id: String, isParent: Bool) {
            self.id = id.lowercased()
            self.isParent = isParent
        }
    }

    /// Why `actor` may not make `change` to `target` among `members`; nil when it is allowed.
    public static func refusal(_ change: Change, to target: String, by actor: String, members: [Member]) -> Refusal? {
        let target = target.lowercased()
        guard members.first(where: { $0.id == actor.lowercased() })?.isParent == true else { return .parentsOnly }
        if change == .remove, target == actor.lowercased() { return .removingSelf }
        guard let member = members.first(where: { $0.id == target }) else { return .noSuchMember }
        let otherParents = members.filter { $0.isParent && $0.id != target }
        let staysParent = change == .role(.parent)
        if member.isParent, !staysParent, otherParents.isEmpty { return .lastParent }
        return nil
    }
}
