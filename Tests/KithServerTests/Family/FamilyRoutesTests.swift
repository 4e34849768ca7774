import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Seed 003's user-management rules through `/v1/family`, on every engine: one family per user,
/// always a parent, only parents let people in, codes that are single use, short-lived and hard
/// to guess.
@Suite("Family routes")
struct FamilyRoutesTests {
    @Test(arguments: Engine.available)
    func aParentFoundsAFamilyAndLetsAChildInWithACode(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let marie = try await FamilyPerson.signUp("marie@example.com", client, server)
            let irene = try await FamilyPerson.signUp("irene@example.com", client, server)
            #expect(try await client.call(.get, "/v1/family", token: marie.token).error?.code == "not_in_family")
            let founded = try await FamilyCalls.create(client, marie)
            #expect(founded.name == "Curie" && founded.timeZone == "Europe/Paris" && founded.role == .parent)
            #expect(founded.members.map(\.displayName) == ["marie"], "named after the email until they choose")

            let code = try await FamilyCalls.code(client, marie, .child)
            #expect(code.wholeMatch(of: /[ACDEFGHJKMNPQRTUVWXY34679]{4}-[ACDEFGHJKMNPQRTUVWXY34679]{4}/) != nil, "\(code)")
            let listed = try await client.call(.get, "/v1/family/codes", token: marie.token).decode(JoinCodeList.self)
            #expect(listed.codes.map(\.role) == [.child] && listed.codes.first?.code == nil, "listed without the code itself")
            #expect(listed.codes.first?.expiresAt == server.clock.now.addingTimeInterval(3600))

            // Over openapi.yaml's 20 code points, spaces included, a real code is refused (and stays usable).
            let padded = try await FamilyCalls.join(client, irene, code + String(repeating: " ", count: 12))
            #expect(padded.status == .unprocessableContent && padded.error?.code == "invalid_join_code", "\(padded.text)")
            // Typed in lower case with a space instead of the dash, as people do.
            let typed = code.lowercased().replacingOccurrences(of: "-", with: " ")
            let joined = try await FamilyCalls.join(client, irene, typed, name: "Irène")
            #expect(joined.status == .ok, "\(joined.text)")
            let family = try joined.decode(FamilyDTO.self)
            #expect(family.role == .child)
            #expect(family.members.map(\.displayName) == ["marie", "Irène"], "parents first")
            #expect(family.members.map(\.email) == ["marie@example.com", "irene@example.com"])
            #expect(try await client.call(.get, "/v1/family", token: marie.token).decode(FamilyDTO.self) == family.with(role: .parent))

            // Single use.
            let third = try await FamilyPerson.signUp("pierre@example.com", client, server)
            let reused = try await FamilyCalls.join(client, third, code)
            #expect(reused.status == .unprocessableContent && reused.error?.code == "invalid_join_code")
            #expect(try await client.call(.get, "/v1/family/codes", token: marie.token).decode(JoinCodeList.self).codes.isEmpty)
        }
    }

    @Test(arguments: Engine.available)
    func onlyParentsLetPeopleInAndAPersonHasOneFamily(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let (marie, irene, _) = try await FamilyCalls.parentAndChild(client, server)
            let childCode = try await client.call(.post, "/v1/family/codes", body: CreateJoinCodeRequest(role: .child), token: irene.token)
            #expect(childCode.status == .forbidden && childCode.error?.code == "forbidden")
            #expect(try await client.call(.get, "/v1/family/codes", token: irene.token).status == .forbidden)
            let rename = try await client.call(.patch, "/v1/family", body: UpdateFamilyRequest(name: "Mine"), token: irene.token)
            #expect(rename.status == .forbidden)
            let promote = try await client.call(
                .patch, "/v1/family/members/\(irene.userID)", body: UpdateMemberRequest(role: .parent), token: irene.token)
            #expect(promote.status == .forbidden, "a child can't make themselves a parent")
            #expect(try await client.call(.delete, "/v1/family/members/\(marie.userID)", token: irene.token).status == .forbidden)

            // One family per user: neither founding another nor joining one.
            let second = try await client.call(.post, "/v1/family", body: CreateFamilyRequest(name: "Other"), token: irene.token)
            #expect(second.status == .conflict && second.error?.code == "already_in_family")
            let pierre = try await FamilyPerson.signUp("pierre@example.com", client, server)
            _ = try await FamilyCalls.create(client, pierre, name: "Other")
            let otherCode = try await FamilyCalls.code(client, pierre, .child)
            let joinSecond = try await FamilyCalls.join(client, irene, otherCode)
            #expect(joinSecond.error?.code == "already_in_family")

            // A child renames themselves; a parent renames the family and changes its time zone.
            let renamed = try await client.call(
                .patch, "/v1/family/members/\(irene.userID)", body: UpdateMemberRequest(displayName: "Irène C."), token: irene.token)
            #expect(try renamed.decode(FamilyDTO.self).members.map(\.displayName).contains("Irène C."))
            let moved = try await client.call(
                .patch, "/v1/family", body: UpdateFamilyRequest(name: "Les Curie", timeZone: "America/New_York"), token: marie.token)
            #expect(try moved.decode(FamilyDTO.self).timeZone == "America/New_York")
            // Control characters (NUL would not even store on PostgreSQL) are refused, not a 500.
            let nul = try await client.call(.patch, "/v1/family", body: UpdateFamilyRequest(name: "Fu\u{0}r\u{1b}"), token: marie.token)
            #expect(nul.status == .unprocessableContent && nul.error?.field == "name", "\(nul.text)")
            let nulName = try await client.call(
                .patch, "/v1/family/members/\(irene.userID)", body: UpdateMemberRequest(displayName: "I\u{0}"), token: irene.token)
            #expect(nulName.status == .unprocessableContent && nulName.error?.field == "displayName")
            let badZone = try await client.call(.patch, "/v1/family", body: UpdateFamilyRequest(timeZone: "Mars/Olympus"), token: marie.token)
            #expect(badZone.status == .unprocessableContent && badZone.error?.field == "timeZone")
            let blank = try await client.call(.post, "/v1/family", body: CreateFamilyRequest(name: "   "), token: pierre.token)
            #expect(blank.status == .unprocessableContent && blank.error?.field == "name", "what was typed is checked first")
        }
    }

    @Test(arguments: Engine.available)
    func aFamilyAlwaysHasAParentAndTheLastOneOutDeletesIt(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let (marie, irene, _) = try await FamilyCalls.parentAndChild(client, server)
            let leave = try await client.call(.post, "/v1/family/leave", token: marie.token)
            #expect(leave.status == .conflict && leave.error?.code == "last_parent")
            let demote = try await client.call(
                .patch, "/v1/family/members/\(marie.userID)", body: UpdateMemberRequest(role: .child), token: marie.token)
            #expect(demote.error?.code == "last_parent")
            let deleteAccount = try await client.call(
                .delete, "/v1/me", body: DeleteAccountRequest(password: "correct horse"), token: marie.token)
            #expect(deleteAccount.error?.code == "last_parent", "the last parent of others can't vanish either")
            #expect(try await client.call(.delete, "/v1/family/members/\(marie.userID)", token: marie.token).status == .unprocessableContent)

            // Make Irène a parent: now Marie may go.
            let promoted = try await client.call(
                .patch, "/v1/family/members/\(irene.userID)", body: UpdateMemberRequest(role: .parent), token: marie.token)
            #expect(try promoted.decode(FamilyDTO.self).members.allSatisfy { $0.role == .parent })
            #expect(try await client.call(.post, "/v1/family/leave", token: marie.token).status == .noContent)
            #expect(try await client.call(.get, "/v1/family", token: marie.token).error?.code == "not_in_family")
            let left = try await client.call(.get, "/v1/family", token: irene.token).decode(FamilyDTO.self)
            #expect(left.members.map(\.email) == ["irene@example.com"])

            // The last one out: the family and everything in it is gone.
            #expect(try await client.call(.post, "/v1/family/leave", token: irene.token).status == .noContent)
            let remaining = try await server.app.database.run { sql in
                try await sql.raw("SELECT COUNT(*) AS n FROM sync_records WHERE scope = \(bind: left.scope)")
                    .first(decodingColumn: "n", as: Int.self)
            }
            #expect(remaining == 0)
            #expect(try await server.app.database.run { sql in
                try await sql.raw("SELECT COUNT(*) AS n FROM families").first(decodingColumn: "n", as: Int.self)
            } == 0)
        }
    }

    @Test(arguments: Engine.available)
    func aParentRemovesAMemberAndAChildCanLeave(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let (marie, irene, _) = try await FamilyCalls.parentAndChild(client, server)
            let eve = try await FamilyPerson.signUp("eve@example.com", client, server)
            #expect(try await FamilyCalls.join(client, eve, try await FamilyCalls.code(client, marie, .child)).status == .ok)
            let removed = try await client.call(.delete, "/v1/family/members/\(eve.userID)", token: marie.token)
            #expect(try removed.decode(FamilyDTO.self).members.map(\.email) == ["marie@example.com", "irene@example.com"])
            #expect(try await client.call(.get, "/v1/family", token: eve.token).error?.code == "not_in_family")
            #expect(try await client.call(.delete, "/v1/family/members/\(eve.userID)", token: marie.token).status == .notFound)
            #expect(try await client.call(.post, "/v1/family/leave", token: irene.token).status == .noContent)
            // A child's account goes with its membership.
            #expect(try await FamilyCalls.join(client, irene, try await FamilyCalls.code(client, marie, .child)).status == .ok)
            let deleted = try await client.call(.delete, "/v1/me", body: DeleteAccountRequest(password: "correct horse"), token: irene.token)
            #expect(deleted.status == .noContent, "\(deleted.text)")
            #expect(try await client.call(.get, "/v1/family", token: marie.token).decode(FamilyDTO.self).members.count == 1)
        }
    }

    @Test(arguments: Engine.available)
    func aRemovedOrDemotedParentsCodesLetNoOneIn(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let (marie, _, _) = try await FamilyCalls.parentAndChild(client, server)
            let pierre = try await FamilyPerson.signUp("pierre@example.com", client, server)
            let paul = try await FamilyPerson.signUp("paul@example.com", client, server)
            let eve = try await FamilyPerson.signUp("eve@example.com", client, server)
            #expect(try await FamilyCalls.join(client, pierre, try await FamilyCalls.code(client, marie, .parent)).status == .ok)
            #expect(try await FamilyCalls.join(client, paul, try await FamilyCalls.code(client, marie, .parent)).status == .ok)

            // Pierre makes a parent code for himself and a child code, then is removed.
            let pierresOwn = try await FamilyCalls.code(client, pierre, .parent)
            let pierresChild = try await FamilyCalls.code(client, pierre, .child)
            #expect(try await client.call(.delete, "/v1/family/members/\(pierre.userID)", token: marie.token).status == .ok)
            let back = try await FamilyCalls.join(client, pierre, pierresOwn)
            #expect(back.status == .unprocessableContent && back.error?.code == "invalid_join_code", "\(back.text)")
            #expect(try await FamilyCalls.join(client, eve, pierresChild).error?.code == "invalid_join_code")

            // Paul makes a code, then becomes a child: his code goes with his role.
            let paulsCode = try await FamilyCalls.code(client, paul, .child)
            let demoted = try await client.call(
                .patch, "/v1/family/members/\(paul.userID)", body: UpdateMemberRequest(role: .child), token: marie.token)
            #expect(demoted.status == .ok, "\(demoted.text)")
            #expect(try await FamilyCalls.join(client, eve, paulsCode).error?.code == "invalid_join_code")
            let listed = try await client.call(.get, "/v1/family/codes", token: marie.token).decode(JoinCodeList.self)
            #expect(listed.codes.isEmpty, "none of their codes is listed as usable")

            // And whatever kept a code alive, joining asks whether its maker is still a parent.
            let marieCode = try await FamilyCalls.code(client, marie, .child)
            let promoted = try await client.call(
                .patch, "/v1/family/members/\(paul.userID)", body: UpdateMemberRequest(role: .parent), token: marie.token)
            #expect(promoted.status == .ok)
            let kept = try await FamilyCalls.code(client, paul, .child)
            try await server.app.database.run { sql in
                try await sql.raw("UPDATE family_members SET role = 'child' WHERE user_id = \(bind: paul.userID)").run()
            }
            let refused = try await FamilyCalls.join(client, eve, kept)
            #expect(refused.status == .unprocessableContent && refused.error?.code == "invalid_join_code", "\(refused.text)")
            #expect(try await FamilyCalls.join(client, eve, marieCode).status == .ok, "a parent's code still works")
        }
    }

    @Test(arguments: Engine.available)
    func codesExpireAfterAnHourCanBeRevokedAndGuessingIsThrottled(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var marie = try await FamilyPerson.signUp("marie@example.com", client, server)
            var pierre = try await FamilyPerson.signUp("pierre@example.com", client, server)
            _ = try await FamilyCalls.create(client, marie)
            let stale = try await FamilyCalls.code(client, marie, .parent)
            server.clock.advance(by: 3601)
            // Access tokens last an hour too: sign in again.
            marie = try await marie.signedInAgain(client, server)
            pierre = try await pierre.signedInAgain(client, server)
            #expect(try await FamilyCalls.join(client, pierre, stale).error?.code == "invalid_join_code")

            let revoked = try await client.call(.post, "/v1/family/codes", body: CreateJoinCodeRequest(role: .parent), token: marie.token)
            let revokedCode = try revoked.decode(JoinCodeDTO.self)
            #expect(try await client.call(.delete, "/v1/family/codes/\(revokedCode.id)", token: marie.token).status == .noContent)
            #expect(try await client.call(.delete, "/v1/family/codes/\(revokedCode.id)", token: marie.token).status == .notFound)
            #expect(try await client.call(.delete, "/v1/family/codes/not-a-code", token: marie.token).status == .notFound)
            #expect(try await FamilyCalls.join(client, pierre, try #require(revokedCode.code)).error?.code == "invalid_join_code")

            let good = try await FamilyCalls.code(client, marie, .parent)
            for guess in ["AAAA-AAAA", "not a code", "CCCC-CCCC"] {
                #expect(try await FamilyCalls.join(client, pierre, guess).error?.code == "invalid_join_code")
            }
            // Five wrong codes within 15 minutes: the next attempt waits, even with the right code.
            let waiting = try await FamilyCalls.join(client, pierre, good)
            #expect(waiting.status == .tooManyRequests && waiting.error?.code == "too_many_attempts")
            #expect(waiting.headers[.retryAfter].flatMap(Int.init).map { $0 > 0 && $0 <= 900 } == true)
            server.clock.advance(by: 15 * 60)
            let later = try await FamilyCalls.join(client, pierre, good)
            #expect(later.status == .ok, "\(later.text)")
            #expect(try later.decode(FamilyDTO.self).role == .parent, "the role the code was made for")
        }
    }
}

@Suite("Family routes across families")
struct FamilyIsolationTests {
    @Test(arguments: Engine.available)
    func aParentOfAnotherFamilyReachesNothingOfThisOne(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let (marie, irene, family) = try await FamilyCalls.parentAndChild(client, server)
            let code = try await client.call(.post, "/v1/family/codes", body: CreateJoinCodeRequest(role: .parent), token: marie.token)
                .decode(JoinCodeDTO.self)
            let pierre = try await FamilyPerson.signUp("pierre@example.com", client, server)
            let nobody = try await FamilyPerson.signUp("nobody@example.com", client, server)
            _ = try await FamilyCalls.create(client, pierre, name: "Dupont")
            for outsider in [pierre, nobody] {
                let attempts = [
                    try await client.call(.delete, "/v1/family/members/\(irene.userID)", token: outsider.token),
                    try await client.call(
                        .patch, "/v1/family/members/\(irene.userID)", body: UpdateMemberRequest(role: .parent, displayName: "Mine"),
                        token: outsider.token),
                    try await client.call(.delete, "/v1/family/codes/\(code.id)", token: outsider.token),
                ]
                for attempt in attempts {
                    #expect(attempt.status == .notFound, "\(outsider.email): \(attempt.text)")
                }
                let mine = try await client.call(.get, "/v1/family", token: outsider.token)
                #expect(!mine.text.contains(family.id) && !mine.text.contains("irene@example.com"))
            }
            #expect(try await client.call(.get, "/v1/family", token: marie.token).decode(FamilyDTO.self) == family.with(role: .parent))
            #expect(try await client.call(.get, "/v1/family/codes", token: marie.token).decode(JoinCodeList.self).codes.map(\.id) == [code.id])
        }
    }
}

extension FamilyDTO {
    func with(role: FamilyRole) -> FamilyDTO {
        var copy = self
        copy.role = role
        return copy
    }
}
