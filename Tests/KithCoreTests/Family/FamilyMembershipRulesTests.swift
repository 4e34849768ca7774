import KithCore
import Testing

/// Who may change whom in a family: what the server refuses and the members page offers.
@Suite("Family membership rules")
struct FamilyMembershipRulesTests {
    typealias Rules = FamilyMembershipRules
    static let members = [
        Rules.Member(id: "ada", isParent: true), Rules.Member(id: "cleo", isParent: false),
        Rules.Member(id: "dan", isParent: false),
    ]

    @Test func onlyAParentChangesRolesAndRemovesOthers() {
        #expect(Rules.refusal(.role(.parent), to: "cleo", by: "ada", members: Self.members) == nil)
        #expect(Rules.refusal(.remove, to: "cleo", by: "ada", members: Self.members) == nil)
        #expect(Rules.refusal(.role(.parent), to: "dan", by: "cleo", members: Self.members) == .parentsOnly)
        #expect(Rules.refusal(.remove, to: "dan", by: "cleo", members: Self.members) == .parentsOnly)
        #expect(Rules.refusal(.remove, to: "zoe", by: "ada", members: Self.members) == .noSuchMember)
    }

    @Test func aFamilyKeepsAParentAndNobodyRemovesThemself() {
        #expect(Rules.refusal(.role(.child), to: "ada", by: "ada", members: Self.members) == .lastParent)
        #expect(Rules.refusal(.remove, to: "ada", by: "ada", members: Self.members) == .removingSelf)
        let twoParents = Self.members + [Rules.Member(id: "ben", isParent: true)]
        #expect(Rules.refusal(.role(.child), to: "ada", by: "ben", members: twoParents) == nil)
        #expect(Rules.refusal(.remove, to: "ben", by: "ada", members: twoParents) == nil)
        #expect(Rules.refusal(.role(.parent), to: "ada", by: "ada", members: Self.members) == nil, "no change")
    }
}
