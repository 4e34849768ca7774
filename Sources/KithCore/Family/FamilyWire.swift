import Foundation

/// What `/v1/family` exchanges (docs/family.md). Membership is the server's: these routes change
/// it, and the server mirrors the family and its members into the family's sync scope as
/// `family.info` and `family.member` records, which is how devices learn names and roles.
public enum FamilyRole: String, Codable, Sendable, CaseIterable {
    case parent
    case child
}

/// The bounds of a family's own fields, checked by the server and by clients before they ask.
public enum FamilyLimits {
    public static let nameLength = 1...60
    public static let displayNameLength = 1...50
    /// A join code works this long after it was made.
    public static let joinCodeLifetimeSeconds = 3600
    /// Wrong codes a user may try per `joinFailureWindowSeconds` before joining is refused for a while.
    public static let joinFailuresAllowed = 5
    public static let joinFailureWindowSeconds = 15 * 60
    /// How often one occurrence's due notice may be snoozed (a family's choice), and the default.
    public static let snoozeLimits: ClosedRange<Int64> = 0...10
    public static let defaultSnoozeLimit: Int64 = 3
    /// Minutes one snooze may last.
    public static let snoozeMinutes: ClosedRange<Int64> = 1...1440
    /// How long the person who completed a reminder may undo it: as long as the parents' completion
    /// notice waits (`NoticePlan.completionDelay`), so an undone completion is told to no one.
    public static let undoSeconds: TimeInterval = 30

    /// `text` trimmed, or why it can't be a family's name (field `name`).
    public static func checkedName(_ text: String) -> Result<String, APIErrorDetail> {
        checked(text, nameLength, field: "name", what: "A family's name")
    }

    /// `text` trimmed, or why it can't be a member's display name (field `displayName`).
    public static func checkedDisplayName(_ text: String) -> Result<String, APIErrorDetail> {
        checked(text, displayNameLength, field: "displayName", what: "A display name")
    }

    /// `identifier` when it names an IANA time zone, or why not (field `timeZone`).
    public static func checkedTimeZone(_ identifier: String) -> Result<String, APIErrorDetail> {
        guard identifier.count <= 64, !identifier.isEmpty, TimeZone(identifier: identifier) != nil,
            identifier.contains("/") || identifier == "UTC"
        else {
            return .failure(
                APIErrorDetail(
                    .validationFailed, "The time zone must be an IANA name such as Europe/Berlin.", field: "timeZone"))
        }
        return .success(identifier)
    }

    private static func checked(_ text: String, _ length: ClosedRange<Int>, field: String, what: String)
        -> Result<String, APIErrorDetail>
    {
        // A name is shown to people; NUL could not even be stored by PostgreSQL.
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return .failure(APIErrorDetail(.validationFailed, "\(what) can't contain control characters.", field: field))
        }
        return SchemaText.checked(
            text, maxLength: length.upperBound, field: field,
            tooLong: "\(what) is at most \(length.upperBound) characters.", empty: "\(what) can't be empty.")
    }
}

/// Join codes: `XXXX-XXXX` from letters and digits that can't be mistaken for one another.
public enum JoinCode {
    /// No 0/O, 1/I/L, 2/Z, 5/S, 8/B: 25 characters, so a code is one of 25^8 (about 1.5 × 10^11).
    public static let alphabet = Array("ACDEFGHJKMNPQRTUVWXY34679")

    /// A new code from `random` bytes (the server passes a cryptographic source).
    public static func make(using random: (Int) -> [UInt8]) -> String {
        var characters: [Character] = []
        // Rejection sampling keeps every character equally likely.
        let limit = UInt8(256 - 256 % alphabet.count)
        while characters.count < 8 {
            for byte in random(16) where byte < limit && characters.count < 8 {
                characters.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return String(characters[0..<4]) + "-" + String(characters[4..<8])
    }

    /// At most this many code points as typed (openapi.yaml's `maxLength`), spaces included.
    public static let maxTypedLength = 20

    /// The code as typed, in its one spelling (upper case, with the dash), or nil when it can't be
    /// one: spaces and a missing dash are forgiven, look-alike letters are not guessed at.
    public static func normalized(_ typed: String) -> String? {
        guard typed.unicodeScalars.count <= maxTypedLength else { return nil }
        let letters = typed.uppercased().filter { !$0.isWhitespace && $0 != "-" }
        guard letters.count == 8, letters.allSatisfy(alphabet.contains) else { return nil }
        return String(letters.prefix(4)) + "-" + String(letters.suffix(4))
    }
}

public struct FamilyMemberDTO: Codable, Sendable, Equatable {
    public var userId: String
    public var email: String
    public var displayName: String
    public var role: FamilyRole
    public var joinedAt: Date

    public init(userId: String, email: String, displayName: String, role: FamilyRole, joinedAt: Date) {
        self.userId = userId
        self.email = email
        self.displayName = displayName
        self.role = role
        self.joinedAt = joinedAt
    }
}

/// The caller's family: `GET /v1/family` and the answer of every route that changes it.
public struct FamilyDTO: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var timeZone: String
    /// The sync scope holding the family's records (`family:<id>`).
    public var scope: String
    /// Parents first, then by name.
    public var members: [FamilyMemberDTO]
    /// The caller's own role.
    public var role: FamilyRole
    /// How often one occurrence's due notice may be snoozed.
    public var snoozeLimit: Int64

    public init(
        id: String, name: String, timeZone: String, scope: String, members: [FamilyMemberDTO], role: FamilyRole,
        snoozeLimit: Int64 = FamilyLimits.defaultSnoozeLimit
    ) {
        self.id = id
        self.name = name
        self.timeZone = timeZone
        self.scope = scope
        self.members = members
        self.role = role
        self.snoozeLimit = snoozeLimit
    }
}

/// `POST /v1/family`: the caller founds a family and is its first parent.
public struct CreateFamilyRequest: Codable, Sendable {
    public var name: String
    /// IANA; UTC when absent.
    public var timeZone: String?
    /// How the family sees the caller; the part of the email before `@` when absent.
    public var displayName: String?

    public init(name: String, timeZone: String? = nil, displayName: String? = nil) {
        self.name = name
        self.timeZone = timeZone
        self.displayName = displayName
    }
}

/// `PATCH /v1/family` (parents): rename, move to another time zone, change the snooze limit.
public struct UpdateFamilyRequest: Codable, Sendable {
    public var name: String?
    public var timeZone: String?
    public var snoozeLimit: Int64?

    public init(name: String? = nil, timeZone: String? = nil, snoozeLimit: Int64? = nil) {
        self.name = name
        self.timeZone = timeZone
        self.snoozeLimit = snoozeLimit
    }
}

/// `POST /v1/family/join`.
public struct JoinFamilyRequest: Codable, Sendable {
    public var code: String
    public var displayName: String?

    public init(code: String, displayName: String? = nil) {
        self.code = code
        self.displayName = displayName
    }
}

/// `PATCH /v1/family/members/{userId}`: a parent changes a role; a member changes their own name.
public struct UpdateMemberRequest: Codable, Sendable {
    public var role: FamilyRole?
    public var displayName: String?

    public init(role: FamilyRole? = nil, displayName: String? = nil) {
        self.role = role
        self.displayName = displayName
    }
}

/// `POST /v1/family/codes` (parents).
public struct CreateJoinCodeRequest: Codable, Sendable {
    public var role: FamilyRole

    public init(role: FamilyRole) { self.role = role }
}

/// A join code. `code` is only in the answer that made it: the server keeps a hash.
public struct JoinCodeDTO: Codable, Sendable, Equatable {
    public var id: String
    public var code: String?
    public var role: FamilyRole
    public var createdBy: String
    public var expiresAt: Date

    public init(id: String, code: String?, role: FamilyRole, createdBy: String, expiresAt: Date) {
        self.id = id
        self.code = code
        self.role = role
        self.createdBy = createdBy
        self.expiresAt = expiresAt
    }
}

/// `GET /v1/family/codes`: the codes not yet used or expired.
public struct JoinCodeList: Codable, Sendable, Equatable {
    public var codes: [JoinCodeDTO]

    public init(codes: [JoinCodeDTO]) { self.codes = codes }
}
