import Foundation
import KithCore

/// The signed-in user's family (`/v1/family`, docs/family.md). Membership lives on the server, so
/// these need the network; the family's reminders are synced records (`FamilyStore`). After a
/// change here, a sync brings the server's `family.info` and `family.member` records to the device.
/// Names, time zones and codes are checked here first by the rules the server checks (`FamilyLimits`,
/// `JoinCode`), so a typo is refused without a round trip.
extension KithClient {
    /// Founds a family with the caller as its first parent (`POST /v1/family`).
    public func createFamily(name: String, timeZone: String? = nil, displayName: String? = nil) async throws
        -> FamilyDTO
    {
        let request = CreateFamilyRequest(
            name: try Self.checked(FamilyLimits.checkedName(name)),
            timeZone: try timeZone.map { try Self.checked(FamilyLimits.checkedTimeZone($0)) },
            displayName: try displayName.map { try Self.checked(FamilyLimits.checkedDisplayName($0)) })
        return try await authorized(KithAPI.Family.create, body: request)
    }

    /// The caller's family with its members, or nil when the caller belongs to none.
    public func family() async throws -> FamilyDTO? {
        do {
            let family: FamilyDTO = try await authorized(KithAPI.Family.show)
            return family
        } catch let error as KithError where error.code == .notInFamily {
            return nil
        }
    }

    /// Renames the family, moves it to another time zone, or changes how often one occurrence of a
    /// reminder may be snoozed (0 to 10; parents).
    public func updateFamily(name: String? = nil, timeZone: String? = nil, snoozeLimit: Int64? = nil) async throws
        -> FamilyDTO
    {
        if let snoozeLimit {
            let limits = FamilyLimits.snoozeLimits
            try KithError.check(
                snoozeLimit, in: limits, field: "snoozeLimit",
                "A reminder may be snoozed \(limits.lowerBound) to \(limits.upperBound) times.")
        }
        let request = UpdateFamilyRequest(
            name: try name.map { try Self.checked(FamilyLimits.checkedName($0)) },
            timeZone: try timeZone.map { try Self.checked(FamilyLimits.checkedTimeZone($0)) }, snoozeLimit: snoozeLimit)
        return try await authorized(KithAPI.Family.update, body: request)
    }

    /// Leaves the family. The last parent can't leave while others remain (`last_parent`); the last
    /// member leaving deletes the family.
    public func leaveFamily() async throws {
        try await authorizedNoContent(KithAPI.Family.leave)
    }

    /// Joins the family a code was made for, with the code's role. The code may be typed with or
    /// without its dash and in any case.
    public func joinFamily(code: String, displayName: String? = nil) async throws -> FamilyDTO {
        guard let normalized = JoinCode.normalized(code) else {
            throw KithError.invalid(
                APIErrorDetail(
                    .invalidJoinCode, "A join code looks like ABCD-EFGH (letters and digits).", field: "code"))
        }
        let request = JoinFamilyRequest(
            code: normalized, displayName: try displayName.map { try Self.checked(FamilyLimits.checkedDisplayName($0)) }
        )
        return try await authorized(KithAPI.Family.join, body: request)
    }

    /// Makes a single-use join code for `role`, valid for an hour (parents). Its `code` is shown
    /// only in this answer.
    public func createJoinCode(role: FamilyRole) async throws -> JoinCodeDTO {
        try await authorized(KithAPI.Family.createCode, body: CreateJoinCodeRequest(role: role))
    }

    /// The family's join codes not yet used or expired (without the codes themselves).
    public func joinCodes() async throws -> [JoinCodeDTO] {
        let list: JoinCodeList = try await authorized(KithAPI.Family.listCodes)
        return list.codes
    }

    public func revokeJoinCode(id: String) async throws {
        try await authorizedNoContent(KithAPI.Family.revokeCode, parameters: [id.lowercased()])
    }

    /// Changes a member's role (parents; never leaving the family without a parent) or display name
    /// (a member's own, or a parent's for anyone).
    public func updateMember(userId: String, role: FamilyRole? = nil, displayName: String? = nil) async throws
        -> FamilyDTO
    {
        let request = UpdateMemberRequest(
            role: role, displayName: try displayName.map { try Self.checked(FamilyLimits.checkedDisplayName($0)) })
        return try await authorized(KithAPI.Family.updateMember, parameters: [userId.lowercased()], body: request)
    }

    /// Removes a member from the family (parents). Their devices drop the family's records on
    /// their next sync.
    public func removeMember(userId: String) async throws -> FamilyDTO {
        try await authorized(KithAPI.Family.removeMember, parameters: [userId.lowercased()])
    }

    private static func checked<Value>(_ result: Result<Value, APIErrorDetail>) throws -> Value {
        switch result {
        case .success(let value): value
        case .failure(let problem): throw KithError.invalid(problem)
        }
    }
}
