import Foundation
import KithCore
import SQLKit

/// Families (docs/family.md): who belongs to which family in which role, and the codes
/// that let someone in. Every rule is here, on the server: one family per user; at least one parent
/// while anyone remains; only parents make codes, rename, change roles and remove others; a code
/// is single use, lasts an hour and guessing is throttled. Each change runs in the family scope's
/// transaction (one change per family at a time, on every server sharing the database) together
/// with the records that mirror it to devices (`FamilyMirror`).
struct FamilyService: Sendable {
    let database: KithDatabase
    let sync: SyncRepository
    let writer: SyncWriter
    let stamps: WebClock
    let clock: Clock
    let ids: IdentifierSource

    static let notInFamily = AppError(
        .notFound, .notInFamily, "You are not in a family yet. Create one, or join one with a code from a parent.")
    static let parentsOnly = AppError(.forbidden, .forbidden, "Only a parent can do this.")
    static let lastParent = AppError(
        .conflict, .lastParent, "A family always has a parent: make another member a parent first.")
    static let alreadyInFamily = AppError(
        .conflict, .alreadyInFamily, "You are already in a family. Leave it first: a person belongs to one family.")

    // MARK: Reading

    func family(of user: AuthenticatedUser) async throws -> FamilyDTO {
        try await database.read { sql in
            let tables = FamilyTables(sql: sql)
            guard let me = try await tables.membership(of: user.id.lowercased) else { throw Self.notInFamily }
            return try await Self.dto(of: me.familyID, for: me, tables)
        }
    }

    // MARK: Founding, joining, leaving

    func create(_ request: CreateFamilyRequest, user: AuthenticatedUser) async throws -> FamilyDTO {
        let name = try Self.checked(FamilyLimits.checkedName(request.name))
        let timeZone = try Self.checked(FamilyLimits.checkedTimeZone(request.timeZone ?? "UTC"))
        let displayName = try Self.checked(FamilyLimits.checkedDisplayName(request.displayName ?? Self.name(from: user.email)))
        if try await membership(of: user) != nil { throw Self.alreadyInFamily }
        let family = FamilyRow(
            id: ids.uuid().lowercased, name: name, timeZone: timeZone, createdAt: clock.nowMillis,
            snoozeLimit: FamilyLimits.defaultSnoozeLimit)
        return try await joining(user) {
            try await inFamily(family.id) { tables, mirror in
                try await tables.insert(family)
                let me = newMember(user, of: family.id, role: .parent, displayName: displayName)
                try await tables.insert(me)
                try await mirror.info(family)
                try await mirror.member(me)
                mirror.nudge(user: me.userID)
                return try await Self.dto(of: family.id, for: me, tables)
            }
        }
    }

    func join(_ request: JoinFamilyRequest, user: AuthenticatedUser) async throws -> FamilyDTO {
        let userID = user.id.lowercased
        let displayName = try Self.checked(FamilyLimits.checkedDisplayName(request.displayName ?? Self.name(from: user.email)))
        if try await membership(of: user) != nil { throw Self.alreadyInFamily }
        let now = clock.nowMillis
        let windowStart = now - Int64(FamilyLimits.joinFailureWindowSeconds) * 1000
        let failures = try await database.read { try await FamilyTables(sql: $0).joinFailures(of: userID, since: windowStart) }
        if failures.count >= FamilyLimits.joinFailuresAllowed, let oldest = failures.first {
            let retryAfter = max(1, Int((oldest - windowStart + 999) / 1000))
            throw AppError(
                .tooManyRequests, .tooManyAttempts,
                "Too many wrong codes. Try again in \(max(1, retryAfter / 60)) minutes, or ask for a new code.",
                headers: [.retryAfter: String(retryAfter)])
        }
        let found = try await JoinCode.normalized(request.code).asyncFlatMap { code in
            try await database.read { try await FamilyTables(sql: $0).code(hash: Tokens.hash(code)) }
        }
        guard let code = found, code.usedBy == nil, code.expiresAt > now else {
            try await database.run { sql in
                try await FamilyTables(sql: sql).recordJoinFailure(
                    id: ids.text(), of: userID, at: now, forgetBefore: windowStart)
            }
            throw AppError(
                .unprocessableContent, .invalidJoinCode,
                "This code is not right, was used already or expired (codes last an hour). Ask a parent for a new one.",
                field: "code")
        }
        return try await joining(user) {
            try await inFamily(code.familyID) { tables, mirror in
                // Checked again in the family's turn: two people racing for one code, one wins.
                guard let fresh = try await tables.code(hash: Tokens.hash(JoinCode.normalized(request.code) ?? "")),
                    fresh.usedBy == nil, fresh.expiresAt > now
                else {
                    throw AppError(
                        .unprocessableContent, .invalidJoinCode, "This code was used a moment ago. Ask a parent for a new one.",
                        field: "code")
                }
                // Only a parent of the family lets people in: a code whose maker is no longer one is
                // void, even if it was somehow kept when they left or became a child.
                let maker = try await tables.membership(of: fresh.createdBy)
                guard let maker, maker.familyID == code.familyID, maker.isParent else {
                    throw AppError(
                        .unprocessableContent, .invalidJoinCode,
                        "The parent who made this code is no longer a parent of the family. Ask a parent for a new one.",
                        field: "code")
                }
                try await tables.markUsed(code: code.id, by: userID, at: now)
                let me = newMember(user, of: code.familyID, role: FamilyRole(rawValue: code.role) ?? .child, displayName: displayName)
                try await tables.insert(me)
                try await mirror.member(me)
                mirror.nudge(user: userID)
                return try await Self.dto(of: code.familyID, for: me, tables)
            }
        }
    }

    /// The caller leaves; the last one out deletes the family with everything in it.
    func leave(user: AuthenticatedUser) async throws {
        guard let me = try await membership(of: user) else { throw Self.notInFamily }
        _ = try await removing(me.userID, from: me.familyID, by: nil)
    }

    /// What account deletion does first: leave the family (refused for the last parent of others).
    func leaveBeforeAccountDeletion(userID: String) async throws {
        guard let me = try await membership(of: userID) else { return }
        _ = try await removing(me.userID, from: me.familyID, by: nil)
    }

    // MARK: Parents' business

    func update(_ request: UpdateFamilyRequest, user: AuthenticatedUser) async throws -> FamilyDTO {
        let name = try request.name.map { try Self.checked(FamilyLimits.checkedName($0)) }
        let timeZone = try request.timeZone.map { try Self.checked(FamilyLimits.checkedTimeZone($0)) }
        if let limit = request.snoozeLimit, !FamilyLimits.snoozeLimits.contains(limit) {
            throw AppError.validation(
                APIErrorDetail(.validationFailed, "A reminder may be snoozed 0 to 10 times.", field: "snoozeLimit"))
        }
        let me = try await parent(user)
        return try await inFamily(me.familyID) { tables, mirror in
            guard try await tables.membership(of: me.userID)?.isParent == true else { throw Self.parentsOnly }
            guard var family = try await tables.family(me.familyID) else { throw Self.notInFamily }
            family.name = name ?? family.name
            family.timeZone = timeZone ?? family.timeZone
            family.snoozeLimit = request.snoozeLimit ?? family.snoozeLimit
            try await tables.update(family)
            try await mirror.info(family)
            return try await Self.dto(of: family.id, for: me, tables)
        }
    }

    func createCode(_ request: CreateJoinCodeRequest, user: AuthenticatedUser) async throws -> JoinCodeDTO {
        let me = try await parent(user)
        let now = clock.nowMillis
        let text = JoinCode.make { count in
            var generator = SystemRandomNumberGenerator()
            return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        }
        let row = JoinCodeRow(
            id: ids.text(), familyID: me.familyID, role: request.role.rawValue, createdBy: me.userID, createdAt: now,
            expiresAt: now + Int64(FamilyLimits.joinCodeLifetimeSeconds) * 1000, usedBy: nil)
        try await database.transaction { sql in
            let tables = FamilyTables(sql: sql)
            try await tables.deleteExpiredCodes(of: me.familyID, at: now)
            try await tables.insertCode(row, hash: Tokens.hash(text))
        }
        return row.dto(code: text)
    }

    func codes(user: AuthenticatedUser) async throws -> JoinCodeList {
        let me = try await parent(user)
        let rows = try await database.read { try await FamilyTables(sql: $0).usableCodes(of: me.familyID, at: clock.nowMillis) }
        return JoinCodeList(codes: rows.map { $0.dto() })
    }

    func revokeCode(_ id: String, user: AuthenticatedUser) async throws {
        let me = try await parent(user)
        let now = clock.nowMillis
        let known = UUID(text: id).map(\.lowercased)
        try await database.transaction { sql in
            let tables = FamilyTables(sql: sql)
            guard let known, try await tables.usableCodes(of: me.familyID, at: now).contains(where: { $0.id == known }) else {
                throw AppError.notFound("This code")
            }
            try await tables.deleteCode(known, of: me.familyID)
        }
    }

    /// A parent changes a member's role; anyone changes their own display name.
    func updateMember(_ userID: String, _ request: UpdateMemberRequest, user: AuthenticatedUser) async throws -> FamilyDTO {
        let displayName = try request.displayName.map { try Self.checked(FamilyLimits.checkedDisplayName($0)) }
        guard let found = try await membership(of: user) else { throw Self.notInFamily }
        let target = userID.lowercased()
        return try await inFamily(found.familyID) { tables, mirror in
            // Roles are read in the family's turn, so a parent demoted a moment ago can't act.
            let members = try await tables.members(of: found.familyID)
            guard let me = members.first(where: { $0.userID == found.userID }) else { throw Self.notInFamily }
            if let role = request.role { try Self.check(.role(role), to: target, by: me, among: members) }
            if displayName != nil && target != me.userID && !me.isParent { throw Self.parentsOnly }
            guard var member = members.first(where: { $0.userID == target }) else {
                throw AppError.notFound("This member")
            }
            if member.isParent && request.role == .child { try await tables.deleteUnusedCodes(madeBy: member.userID, of: member.familyID) }
            member.role = request.role?.rawValue ?? member.role
            member.displayName = displayName ?? member.displayName
            try await tables.update(member)
            try await mirror.member(member)
            return try await Self.dto(of: me.familyID, for: me.userID == target ? member : me, tables)
        }
    }

    /// A parent removes another member (leaving is `leave`).
    func removeMember(_ userID: String, user: AuthenticatedUser) async throws -> FamilyDTO {
        let me = try await parent(user)
        guard userID.lowercased() != me.userID else {
            throw AppError(.unprocessableContent, .validationFailed, "To leave the family yourself, use leave.", field: "userId")
        }
        guard let family = try await removing(userID.lowercased(), from: me.familyID, by: me) else { throw Self.notInFamily }
        return family
    }

    // MARK: Steps

    /// `FamilyMembershipRules`' refusal of `change`, as the API answers it.
    private static func check(
        _ change: FamilyMembershipRules.Change, to target: String, by actor: MemberRow, among members: [MemberRow]
    ) throws {
        let ruled = members.map { FamilyMembershipRules.Member(id: $0.userID, isParent: $0.isParent) }
        switch FamilyMembershipRules.refusal(change, to: target, by: actor.userID, members: ruled) {
        case nil: return
        case .parentsOnly: throw parentsOnly
        case .noSuchMember: throw AppError.notFound("This member")
        case .lastParent: throw lastParent
        case .removingSelf:
            throw AppError(
                .unprocessableContent, .validationFailed, "To leave the family yourself, use leave.", field: "userId")
        }
    }

    /// Takes `userID` out of the family: refused for the last parent while others remain; the last
    /// member out deletes the family. The family as `by` sees it afterwards (nil when it is gone or
    /// `by` left).
    private func removing(_ userID: String, from familyID: String, by remover: MemberRow?) async throws -> FamilyDTO? {
        try await inFamily(familyID) { tables, mirror in
            let members = try await tables.members(of: familyID)
            if let remover { try Self.check(.remove, to: userID, by: remover, among: members) }
            guard let member = members.first(where: { $0.userID == userID }) else { throw AppError.notFound("This member") }
            let others = members.filter { $0.userID != userID }
            if others.isEmpty {
                try await tables.delete(family: familyID)
                mirror.nudge(user: userID)
                return nil
            }
            if member.isParent && !others.contains(where: \.isParent) { throw Self.lastParent }
            try await tables.deleteUnusedCodes(madeBy: userID, of: familyID)
            try await tables.delete(member: userID)
            try await mirror.removed(member)
            mirror.nudge(user: userID)
            guard let remover, remover.userID != userID else { return nil }
            return try await Self.dto(of: familyID, for: remover, tables)
        }
    }

    /// Runs `body` in the family scope's transaction, then nudges live sockets about what it wrote.
    private func inFamily<T: Sendable>(
        _ familyID: String, _ body: @escaping @Sendable (FamilyTables, inout FamilyMirror) async throws -> T
    ) async throws -> T {
        let (result, changes) = try await sync.inScope(FamilyRow.scope(of: familyID)) {
            [writer, stamps, ids] store in
            var mirror = FamilyMirror(store: store, writer: writer, stamps: stamps, ids: ids)
            let result = try await body(FamilyTables(sql: store.sql), &mirror)
            return (result, mirror.changes)
        }
        await writer.announce(changes)
        return result
    }

    /// `step`, with the one-family-per-user key turning a lost race (the same person founding or
    /// joining twice at once) into "already in a family" rather than a failure.
    private func joining<T>(_ user: AuthenticatedUser, _ step: () async throws -> T) async throws -> T {
        do {
            return try await step()
        } catch let error as AppError {
            throw error
        } catch {
            if try await membership(of: user) != nil { throw Self.alreadyInFamily }
            throw error
        }
    }

    private func newMember(_ user: AuthenticatedUser, of familyID: String, role: FamilyRole, displayName: String) -> MemberRow {
        MemberRow(
            userID: user.id.lowercased, familyID: familyID, role: role.rawValue, displayName: displayName,
            recordID: ids.uuid().lowercased, joinedAt: clock.nowMillis, email: user.email)
    }

    private func membership(of user: AuthenticatedUser) async throws -> MemberRow? {
        try await membership(of: user.id.lowercased)
    }

    private func membership(of userID: String) async throws -> MemberRow? {
        try await database.read { try await FamilyTables(sql: $0).membership(of: userID) }
    }

    private func parent(_ user: AuthenticatedUser) async throws -> MemberRow {
        guard let me = try await membership(of: user) else { throw Self.notInFamily }
        guard me.isParent else { throw Self.parentsOnly }
        return me
    }

    private static func dto(of familyID: String, for me: MemberRow, _ tables: FamilyTables) async throws -> FamilyDTO {
        guard let family = try await tables.family(familyID) else { throw notInFamily }
        let members = try await tables.members(of: familyID)
        let role = members.first { $0.userID == me.userID }.flatMap { FamilyRole(rawValue: $0.role) } ?? .child
        return FamilyDTO(
            id: family.id, name: family.name, timeZone: family.timeZone, scope: family.scope, members: members.map(\.dto),
            role: role, snoozeLimit: family.snoozeLimit)
    }

    /// The part of an email before `@`, cut to a display name's length.
    static func name(from email: String) -> String {
        let local = email.split(separator: "@").first.map(String.init) ?? email
        return String(String.UnicodeScalarView(local.unicodeScalars.prefix(FamilyLimits.displayNameLength.upperBound)))
    }

    private static func checked(_ result: Result<String, APIErrorDetail>) throws -> String {
        switch result {
        case .success(let value): return value
        case .failure(let problem): throw AppError.validation(problem)
        }
    }
}

extension Optional {
    fileprivate func asyncFlatMap<U>(_ transform: (Wrapped) async throws -> U?) async rethrows -> U? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
