import Foundation
import KithCore
import KithKit
import KithTestSupport
import Testing

/// KithClient's family routes against a scripted transport: what each sends, and what it refuses
/// before sending.
@Suite("KithClient family routes")
struct KithClientFamilyTests {
    static let parent = FamilyMemberDTO(
        userId: Fixture.user.id.lowercased, email: "ada@example.com", displayName: "Ada", role: .parent,
        joinedAt: Fixture.now)
    static let family = FamilyDTO(
        id: "0f9e0c2a-51d8-4c55-9d55-1c6f3f3c9a10", name: "Lovelaces", timeZone: "Europe/London",
        scope: "family:0f9e0c2a-51d8-4c55-9d55-1c6f3f3c9a10", members: [parent], role: .parent)

    static func client(_ transport: FakeTransport) -> KithClient {
        Fixture.client(transport, store: InMemorySessionStore(Fixture.session()))
    }

    @Test func everyRouteSendsItsMethodPathAndBody() async throws {
        let code = JoinCodeDTO(
            id: "c0de0000-0000-4000-8000-000000000001", code: "ACDE-FGHJ", role: .child, createdBy: Self.parent.userId,
            expiresAt: Fixture.now.addingTimeInterval(3600))
        let transport = FakeTransport.replaying(
            Fixture.json(201, Self.family), Fixture.json(Self.family), Fixture.json(Self.family), Fixture.noContent,
            Fixture.json(Self.family), Fixture.json(201, code), Fixture.json(JoinCodeList(codes: [code])),
            Fixture.noContent,
            Fixture.json(Self.family), Fixture.json(Self.family))
        let client = Self.client(transport)
        let member = "7C9E6679-0000-4000-8000-00000000BEEF"

        #expect(
            try await client.createFamily(name: "  Lovelaces ", timeZone: "Europe/London", displayName: "Ada")
                == Self.family)
        #expect(try await client.family() == Self.family)
        _ = try await client.updateFamily(name: "The Lovelaces", snoozeLimit: 5)
        try await client.leaveFamily()
        _ = try await client.joinFamily(code: "acde fghj", displayName: "Ada")
        #expect(try await client.createJoinCode(role: .child) == code)
        #expect(try await client.joinCodes() == [code])
        try await client.revokeJoinCode(id: code.id)
        _ = try await client.updateMember(userId: member, role: .parent)
        _ = try await client.removeMember(userId: member)

        #expect(
            transport.log.lines == [
                "POST /v1/family", "GET /v1/family", "PATCH /v1/family", "POST /v1/family/leave",
                "POST /v1/family/join",
                "POST /v1/family/codes", "GET /v1/family/codes",
                "DELETE /v1/family/codes/c0de0000-0000-4000-8000-000000000001",
                "PATCH /v1/family/members/7c9e6679-0000-4000-8000-00000000beef",
                "DELETE /v1/family/members/7c9e6679-0000-4000-8000-00000000beef",
            ])
        let requests = transport.log.requests
        #expect(requests.allSatisfy { $0.header("Authorization") == "Bearer kat_old" })
        let created = try requests[0].decodedBody(CreateFamilyRequest.self)
        #expect(created.name == "Lovelaces", "the name is sent trimmed")
        #expect(created.timeZone == "Europe/London")
        #expect(try requests[2].decodedBody(UpdateFamilyRequest.self).name == "The Lovelaces")
        #expect(try requests[2].decodedBody(UpdateFamilyRequest.self).snoozeLimit == 5)
        #expect(
            try requests[4].decodedBody(JoinFamilyRequest.self).code == "ACDE-FGHJ",
            "the code is sent in its one spelling")
        #expect(try requests[5].decodedBody(CreateJoinCodeRequest.self).role == .child)
        #expect(try requests[8].decodedBody(UpdateMemberRequest.self).role == .parent)
    }

    @Test func noFamilyIsNilAndOtherRefusalsAreErrors() async throws {
        let transport = FakeTransport.replaying(
            Fixture.error(404, .notInFamily, "You are not in a family."),
            Fixture.error(409, .lastParent, "A family needs a parent."))
        let client = Self.client(transport)
        #expect(try await client.family() == nil)
        let error = await expectKithError { try await client.leaveFamily() }
        #expect(error?.code == .lastParent)
        #expect(error?.userMessage == "A family needs a parent.")
    }

    @Test func badInputIsRefusedWithoutARequest() async throws {
        let transport = FakeTransport.replaying([])
        let client = Self.client(transport)
        #expect(await expectKithError { try await client.createFamily(name: "   ") }?.field == "name")
        #expect(
            await expectKithError { try await client.createFamily(name: "Us", timeZone: "Mars/Olympus") }?.field
                == "timeZone")
        #expect(await expectKithError { try await client.joinFamily(code: "0OIL-1234") }?.code == .invalidJoinCode)
        #expect(await expectKithError { try await client.updateFamily(snoozeLimit: 11) }?.field == "snoozeLimit")
        #expect(
            await expectKithError { try await client.updateMember(userId: "x", displayName: "") }?.field
                == "displayName")
        #expect(transport.log.lines.isEmpty)
    }
}
