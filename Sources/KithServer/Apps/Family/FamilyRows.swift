import Foundation
import KithCore

/// A `families` row.
struct FamilyRow: Decodable, Sendable {
    var id: String
    var name: String
    var timeZone: String
    var createdAt: Int64
    var snoozeLimit: Int64

    enum CodingKeys: String, CodingKey {
        case id, name
        case timeZone = "time_zone"
        case createdAt = "created_at"
        case snoozeLimit = "snooze_limit"
    }

    var scope: String { Self.scope(of: id) }
    static func scope(of familyID: String) -> String { "family:" + familyID }
    /// The id of the family's one `family.info` record, derived so no table needs to keep it.
    var infoRecordID: UUID { StableUUID.make(from: "family.info:" + id) }
}

/// A `family_members` row with the member's email (from `users`).
struct MemberRow: Decodable, Sendable {
    var userID: String
    var familyID: String
    var role: String
    var displayName: String
    var recordID: String
    var joinedAt: Int64
    var email: String

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case familyID = "family_id"
        case role
        case displayName = "display_name"
        case recordID = "record_id"
        case joinedAt = "joined_at"
        case email
    }

    var isParent: Bool { role == FamilyRole.parent.rawValue }

    var dto: FamilyMemberDTO {
        FamilyMemberDTO(
            userId: userID, email: email, displayName: displayName, role: FamilyRole(rawValue: role) ?? .child,
            joinedAt: Date(epochMillis: joinedAt))
    }
}

/// A `family_join_codes` row (the code itself is never stored, only its hash).
struct JoinCodeRow: Decodable, Sendable {
    var id: String
    var familyID: String
    var role: String
    var createdBy: String
    var createdAt: Int64
    var expiresAt: Int64
    var usedBy: String?

    enum CodingKeys: String, CodingKey {
        case id, role
        case familyID = "family_id"
        case createdBy = "created_by"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
        case usedBy = "used_by"
    }

    func dto(code: String? = nil) -> JoinCodeDTO {
        JoinCodeDTO(
            id: id, code: code, role: FamilyRole(rawValue: role) ?? .child, createdBy: createdBy,
            expiresAt: Date(epochMillis: expiresAt))
    }
}
