import Foundation
import KithCore

/// The members page (family-members.mustache): the members, and for parents the invite codes and
/// the family's settings; the reader's own name; a new code, shown once; a refusal.
struct FamilyMembersModel: FamilyPageModel {
    static let template = "family-members"

    let family: FamilySummary
    let members: [MemberListItem]
    /// The reader's name in the family.
    let myName: String
    /// The settings' zone field: the family's zone, or what a refused form typed.
    var zone: ZoneField
    let snoozeLimits: [SnoozeLimitOption]
    /// The codes not used yet (parents only).
    var codes: [CodeRow]?
    var hasCodes = false
    /// A code just made: shown this once (the server keeps only its hash).
    var newCode: NewCode?
    var errors: FamilyFieldErrors?
    var error: String?
    let limits = FamilyFormLimits.declared

    init(_ snapshot: FamilySnapshot) {
        family = FamilySummary(snapshot)
        members = MemberListItem.all(snapshot)
        myName = snapshot.family.members.first { $0.userId.lowercased() == snapshot.me }?.displayName ?? ""
        zone = ZoneField(value: snapshot.family.timeZone)
        snoozeLimits = FamilyLimits.snoozeLimits.map {
            SnoozeLimitOption(value: $0, selected: $0 == snapshot.family.snoozeLimit)
        }
    }

    struct SnoozeLimitOption {
        let value: Int64
        let selected: Bool
    }

    struct CodeRow {
        let id: String
        /// "Parent" or "Child".
        let role: String
        let expires: String
    }

    struct NewCode {
        let code: String
        /// "a parent" or "a child".
        let role: String
        let expires: String
    }
}
