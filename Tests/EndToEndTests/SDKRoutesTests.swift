import Foundation
import KithCore
import KithKit
import KithServer
import KithTestSupport
import Synchronization
import Testing

/// The SDK and the server share one definition of each route (`KithAPI`); these tests make sure
/// nothing calls around it: every route defined is served, and every request KithKit makes in a
/// whole account's life lands on a route the server serves.
@Suite("SDK routes are server routes")
struct SDKRoutesTests {
    /// Records what a transport was asked, then lets the real one answer.
    final class RecordingTransport: HTTPTransport {
        let base: any HTTPTransport
        let requests = Mutex<[(method: String, path: String)]>([])

        init(_ base: any HTTPTransport) { self.base = base }

        func send(_ request: HTTPExchangeRequest) async throws -> HTTPExchangeResponse {
            requests.withLock { $0.append((request.method, request.url.path)) }
            return try await base.send(request)
        }
    }

    @Test func everyDefinedRouteIsServed() async throws {
        try await LiveServer.run { server in
            let served = Set(server.app.routes)
            for route in KithAPI.all {
                #expect(served.contains(route.description), "\(route) is defined in KithCore but not served")
            }
        }
    }

    @Test func everyRequestTheSDKMakesIsServed() async throws {
        try await LiveServer.run { server in
            let recorder = RecordingTransport(URLSessionTransport(timeout: 30))
            let client = KithClient(serverURL: server.url, store: InMemorySessionStore(), transport: recorder)
            let email = uniqueEmail("routes")
            try await client.signUp(email: email, password: "long enough password")
            _ = try await client.me()
            try await client.refresh()
            let token = try await client.createPersonalToken(name: "routes")
            _ = try await client.personalTokens()
            try await client.revokePersonalToken(id: token.id)
            _ = try await client.push(PushRequest(clientId: UUID(), mutations: []))
            _ = try await client.pull(cursor: nil, limit: 10)
            _ = try await client.searchFoods("banana", limit: 5)
            _ = try await client.pushDevices()
            await #expect(throws: KithError.self, "no such device") {
                try await client.updatePushDevice(id: UUID().lowercased, kinds: [.due])
            }
            await #expect(throws: KithError.self, "no such device") { try await client.removePushDevice(id: UUID().lowercased) }
            let (liveURL, _) = try await client.liveEndpoint()
            let family = try await client.createFamily(name: "Routes", timeZone: "Europe/Berlin")
            _ = try await client.family()
            _ = try await client.updateFamily(name: "Routes again")
            let code = try await client.createJoinCode(role: .child)
            _ = try await client.joinCodes()
            try await client.revokeJoinCode(id: code.id)
            let me = try #require(family.members.first).userId
            _ = try await client.updateMember(userId: me, displayName: "Me")
            await #expect(throws: KithError.self, "a parent can't remove themselves") {
                try await client.removeMember(userId: me)
            }
            await #expect(throws: KithError.self, "already in a family") { try await client.joinFamily(code: "ACDE-FGHJ") }
            try await client.leaveFamily()
            try await client.changePassword(current: "long enough password", new: "another long password")
            try await client.requestPasswordReset(email: email)
            await #expect(throws: KithError.self) {
                try await client.confirmPasswordReset(token: "kpr_not-a-real-one", newPassword: "a third password")
            }
            try await client.signOut()
            try await client.signIn(email: email, password: "another long password")
            try await client.deleteAccount(password: "another long password")

            let table = RoutePatterns(server.app.routes)
            let made = recorder.requests.withLock { $0 }
            #expect(made.count >= 24)
            for request in made {
                #expect(table.serves(request.method, request.path), "the SDK called \(request.method) \(request.path)")
            }
            #expect(table.serves("GET", liveURL.path), "the live socket's address is a served route")
        }
    }
}

/// "METHOD /pattern" routes, matched as the router does: `{name}` takes any one component.
struct RoutePatterns {
    let routes: [(method: String, components: [Substring])]

    init(_ descriptions: [String]) {
        routes = descriptions.compactMap { description in
            let parts = description.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return (String(parts[0]), parts[1].split(separator: "/"))
        }
    }

    func serves(_ method: String, _ path: String) -> Bool {
        let components = path.split(separator: "/")
        return routes.contains { route in
            route.method == method && route.components.count == components.count
                && zip(route.components, components).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }
    }
}
