import Foundation
import SQLKit

/// The SQL of families, members, join codes and failed joins. It runs in the transaction it is
/// given (`FamilyRepository`'s or a family scope's, so membership and its mirrored records commit
/// together); `FamilyService` decides what to do.
struct FamilyTables: Sendable {
    let sql: any SQLDatabase

    // MARK: Families and members

    func family(_ id: String) async throws -> FamilyRow? {
        try await sql.raw("SELECT * FROM families WHERE id = \(bind: id)").record(FamilyRow.self)
    }

    func membership(of userID: String) async throws -> MemberRow? {
        try await sql.raw("\(unsafeRaw: Self.selectMembers) WHERE m.user_id = \(bind: userID)").record(MemberRow.self)
    }

    /// The family's members, parents first, then by name.
    func members(of familyID: String) async throws -> [MemberRow] {
        try await sql.raw(
            "\(unsafeRaw: Self.selectMembers) WHERE m.family_id = \(bind: familyID) ORDER BY m.role DESC, m.display_name, m.joined_at"
        ).records(MemberRow.self)
    }

    private static let selectMembers = """
        SELECT m.user_id, m.family_id, m.role, m.display_name, m.record_id, m.joined_at, u.email
        FROM family_members m JOIN users u ON u.id = m.user_id
        """

    func insert(_ family: FamilyRow) async throws {
        try await sql.raw(
            """
            INSERT INTO families (id, name, time_zone, created_at, snooze_limit)
            VALUES (\(bind: family.id), \(bind: family.name), \(bind: family.timeZone), \(bind: family.createdAt),
                    \(bind: family.snoozeLimit))
            """
        ).run()
    }

    func update(_ family: FamilyRow) async throws {
        try await sql.raw(
            """
            UPDATE families SET name = \(bind: family.name), time_zone = \(bind: family.timeZone),
                snooze_limit = \(bind: family.snoozeLimit)
            WHERE id = \(bind: family.id)
            """
        ).run()
    }

    /// The family, its members, codes and every synced record of its scope.
    func delete(family id: String) async throws {
        try await sql.raw("DELETE FROM sync_records WHERE scope = \(bind: FamilyRow.scope(of: id))").run()
        try await sql.raw("DELETE FROM sync_scope_counters WHERE scope = \(bind: FamilyRow.scope(of: id))").run()
        try await sql.raw("DELETE FROM families WHERE id = \(bind: id)").run()
    }

    func insert(_ member: MemberRow) async throws {
        try await sql.raw(
            """
            INSERT INTO family_members (user_id, family_id, role, display_name, record_id, joined_at)
            VALUES (\(bind: member.userID), \(bind: member.familyID), \(bind: member.role), \(bind: member.displayName),
                    \(bind: member.recordID), \(bind: member.joinedAt))
            """
        ).run()
    }

    func update(_ member: MemberRow) async throws {
        try await sql.raw(
            """
            UPDATE family_members SET role = \(bind: member.role), display_name = \(bind: member.displayName)
            WHERE user_id = \(bind: member.userID)
            """
        ).run()
    }

    func delete(member userID: String) async throws {
        try await sql.raw("DELETE FROM family_members WHERE user_id = \(bind: userID)").run()
    }

    // MARK: Join codes

    func insertCode(_ code: JoinCodeRow, hash: String) async throws {
        try await sql.raw(
            """
            INSERT INTO family_join_codes (id, code_hash, family_id, role, created_by, created_at, expires_at)
            VALUES (\(bind: code.id), \(bind: hash), \(bind: code.familyID), \(bind: code.role), \(bind: code.createdBy),
                    \(bind: code.createdAt), \(bind: code.expiresAt))
            """
        ).run()
    }

    func code(hash: String) async throws -> JoinCodeRow? {
        try await sql.raw("SELECT * FROM family_join_codes WHERE code_hash = \(bind: hash)").record(JoinCodeRow.self)
    }

    /// The family's codes that can still be used, newest first.
    func usableCodes(of familyID: String, at now: Int64) async throws -> [JoinCodeRow] {
        try await sql.raw(
            """
            SELECT * FROM family_join_codes
            WHERE family_id = \(bind: familyID) AND used_by IS NULL AND expires_at > \(bind: now)
            ORDER BY created_at DESC
            """
        ).records(JoinCodeRow.self)
    }

    func markUsed(code id: String, by userID: String, at now: Int64) async throws {
        try await sql.raw(
            "UPDATE family_join_codes SET used_by = \(bind: userID), used_at = \(bind: now) WHERE id = \(bind: id)"
        ).run()
    }

    func deleteCode(_ id: String, of familyID: String) async throws {
        try await sql.raw("DELETE FROM family_join_codes WHERE id = \(bind: id) AND family_id = \(bind: familyID)").run()
    }

    /// The unused codes `userID` made: a parent who leaves, is removed or becomes a child lets no
    /// one in any more, not even themselves with a code made just before.
    func deleteUnusedCodes(madeBy userID: String, of familyID: String) async throws {
        try await sql.raw(
            """
            DELETE FROM family_join_codes
            WHERE family_id = \(bind: familyID) AND created_by = \(bind: userID) AND used_by IS NULL
            """
        ).run()
    }

    /// Codes that expired: nothing can use them, so their rows go.
    func deleteExpiredCodes(of familyID: String, at now: Int64) async throws {
        try await sql.raw(
            "DELETE FROM family_join_codes WHERE family_id = \(bind: familyID) AND expires_at <= \(bind: now)"
        ).run()
    }

    // MARK: Failed joins

    /// When `userID`'s wrong codes since `since` were tried, oldest first.
    func joinFailures(of userID: String, since: Int64) async throws -> [Int64] {
        try await sql.raw(
            """
            SELECT failed_at FROM family_join_failures
            WHERE user_id = \(bind: userID) AND failed_at > \(bind: since) ORDER BY failed_at
            """
        ).all(decodingColumn: "failed_at", as: Int64.self)
    }

    func recordJoinFailure(id: String, of userID: String, at now: Int64, forgetBefore: Int64) async throws {
        try await sql.raw(
            "DELETE FROM family_join_failures WHERE user_id = \(bind: userID) AND failed_at <= \(bind: forgetBefore)"
        ).run()
        try await sql.raw(
            "INSERT INTO family_join_failures (id, user_id, failed_at) VALUES (\(bind: id), \(bind: userID), \(bind: now))"
        ).run()
    }
}
