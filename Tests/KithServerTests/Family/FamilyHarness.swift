import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// People of a family test, each signed in on their own device, and what they call.
struct FamilyPerson {
    let email: String
    let device: SyncAPITests.Device
    var token: String { device.token }
    var userID: String { device.userID }

    /// The same person with a fresh session (after the test clock moved past their access token).
    func signedInAgain(_ client: any TestClientProtocol, _ server: TestServer) async throws -> FamilyPerson {
        let session = try await client.logIn(email, "correct horse").decode(AuthSessionResponse.self)
        return FamilyPerson(email: email, device: SyncAPITests.device(session, node: email, server: server))
    }

    static func signUp(_ email: String, _ client: any TestClientProtocol, _ server: TestServer) async throws -> FamilyPerson {
        FamilyPerson(email: email, device: SyncAPITests.device(try await client.signUp(email), node: email, server: server))
    }
}

enum FamilyCalls {
    static func create(_ client: any TestClientProtocol, _ person: FamilyPerson, name: String = "Curie", timeZone: String? = "Europe/Paris")
        async throws -> FamilyDTO
    {
        let response = try await client.call(
            .post, "/v1/family", body: CreateFamilyRequest(name: name, timeZone: timeZone), token: person.token)
        #expect(response.status == .created, "\(response.text)")
        return try response.decode(FamilyDTO.self)
    }

    static func code(_ client: any TestClientProtocol, _ parent: FamilyPerson, _ role: FamilyRole) async throws -> String {
        let response = try await client.call(.post, "/v1/family/codes", body: CreateJoinCodeRequest(role: role), token: parent.token)
        #expect(response.status == .created, "\(response.text)")
        return try #require(try response.decode(JoinCodeDTO.self).code)
    }

    static func join(_ client: any TestClientProtocol, _ person: FamilyPerson, _ code: String, name: String? = nil)
        async throws -> TestResponse
    {
        try await client.call(.post, "/v1/family/join", body: JoinFamilyRequest(code: code, displayName: name), token: person.token)
    }

    /// A family of a parent and a child, with display names "Marie" and "Irène".
    static func parentAndChild(_ client: any TestClientProtocol, _ server: TestServer) async throws
        -> (parent: FamilyPerson, child: FamilyPerson, family: FamilyDTO)
    {
        let parent = try await FamilyPerson.signUp("marie@example.com", client, server)
        let child = try await FamilyPerson.signUp("irene@example.com", client, server)
        _ = try await client.call(
            .post, "/v1/family", body: CreateFamilyRequest(name: "Curie", timeZone: "Europe/Paris", displayName: "Marie"),
            token: parent.token)
        let joined = try await join(client, child, try await code(client, parent, .child), name: "Irène")
        #expect(joined.status == .ok, "\(joined.text)")
        return (parent, child, try joined.decode(FamilyDTO.self))
    }
}
