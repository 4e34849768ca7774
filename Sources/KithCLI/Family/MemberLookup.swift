import Foundation
import KithCore
import KithKit

/// A family member as a command line names them: the email is known only from the server's answer.
struct KnownMember: Sendable, Equatable {
    let userId: String
    let displayName: String
    let role: String
    let email: String?

    init(_ member: FamilyMember, email: String?) {
        userId = member.id
        displayName = member.displayName
        role = member.role.rawValue
        self.email = email
    }

    init(_ member: FamilyMemberDTO) {
        userId = member.userId.lowercased()
        displayName = member.displayName
        role = member.role.rawValue
        email = member.email
    }

    /// "Ada (parent, ada@example.com)".
    var label: String { "\(displayName) (\(([role] + [email].compactMap { $0 }).joined(separator: ", ")))" }
}

/// MEMBER on the command line: an email or a display name, in any case.
enum MemberLookup {
    /// The one member `text` names; nil when none does; an error listing them when several do.
    static func find(_ text: String, among members: [KnownMember]) throws -> KnownMember? {
        let wanted = text.trimmingCharacters(in: .whitespaces)
        let matches = members.filter { member in
            member.displayName.caseInsensitiveCompare(wanted) == .orderedSame
                || member.email.map { $0.caseInsensitiveCompare(wanted) == .orderedSame } == true
        }
        guard matches.count <= 1 else {
            throw KithError.invalid(
                APIErrorDetail(.ambiguousMember, "\"\(wanted)\" names \(matches.count) members: \(list(matches)). Use their email."))
        }
        return matches.first
    }

    /// Why `text` names nobody, with the members it could have named.
    static func unknown(_ text: String, among members: [KnownMember], offline: Bool) -> KithError {
        let hint = offline ? " (offline, so emails can't be looked up: use a display name)" : ""
        return KithError.invalid(
            APIErrorDetail(.unknownMember, "No member \"\(text)\"\(hint). Members: \(list(members))."))
    }

    static func list(_ members: [KnownMember]) -> String { members.map(\.label).joined(separator: ", ") }
}
