import Foundation
import KithCore
import KithKit
import KithKitNIO
import KithServer
import KithTestSupport
import Testing

/// `NIOLiveTransport` against a real server on loopback: what a Linux device's sync engine uses.
@Suite("Live socket over SwiftNIO")
struct LiveTransportTests {
    static let note = EntityDeclaration(
        name: "test.note", scope: .user, fields: [FieldDeclaration("title", .string(maxLength: 50))])

    static func withServer(_ body: @Sendable (LiveServer) async throws -> Void) async throws {
        try await LiveServer.run(.sqlite, configure: { $0.entities = EntityCatalog([note]) }, body)
    }

    /// Signs a new user up and returns the client and its access token.
    static func signedIn(_ server: LiveServer) async throws -> (KithClient, StoredSession) {
        let client = server.client()
        _ = try await client.signUp(email: uniqueEmail("live"), password: "long enough password")
        return (client, try #require(try await client.storedSession()))
    }

    /// Pushes a new note through the API and returns the sequence value the change got.
    static func pushNote(_ client: KithClient, _ session: StoredSession) async throws -> Int64 {
        let scope = "user:\(session.user.id.uuidString.lowercased())"
        var clock = HybridLogicalClock(node: "e2e")
        let id = UUID()
        let mutation = Mutation(
            mutationId: UUID(), entity: note.name, id: id, scope: scope, op: .upsert, fields: ["title": .string("Hi")],
            hlc: clock.tick(now: Date().epochMillis))
        let pushed: PushResponse = try await client.authorized(
            KithAPI.Sync.push, body: PushRequest(clientId: UUID(), mutations: [mutation]))
        #expect(pushed.results.map(\.status) == [.applied])
        let pulled: PullResponse = try await client.authorized(KithAPI.Sync.pull)
        return try #require(pulled.changes.first { $0.id == id }?.seq)
    }

    static func scope(_ session: StoredSession) -> String { "user:\(session.user.id.uuidString.lowercased())" }

    @Test func receivesReadyAndChangesAndFinishesWhenTheServerStops() async throws {
        let feeds = Locked<LiveFeed?>(nil)
        try await Self.withServer { server in
            let (client, session) = try await Self.signedIn(server)
            let feed = LiveFeed(LiveFeed.url(of: server.url), token: session.accessToken)
            feeds.value = feed
            #expect(await feed.next() == .message(.ready))
            let seq = try await Self.pushNote(client, session)
            #expect(await feed.next() == .message(.changed(scope: Self.scope(session), seq: seq)))
        }
        let feed = try #require(feeds.value)
        #expect(await feed.next() == .finished, "the server's shutdown ends the stream without an error")
    }

    @Test func aRefusedTokenIsToldThenTheStreamFinishes() async throws {
        try await Self.withServer { server in
            let feed = LiveFeed(LiveFeed.url(of: server.url), token: "not-a-token")
            guard case .message(let refusal) = await feed.next() else { throw TestFailure("no refusal message") }
            #expect(refusal.code == "unauthorized")
            #expect(await feed.next() == .finished)
        }
    }

    @Test func cancellingTheConsumerClosesTheSocket() async throws {
        try await Self.withServer { server in
            let (_, session) = try await Self.signedIn(server)
            let feed = LiveFeed(LiveFeed.url(of: server.url), token: session.accessToken)
            #expect(await feed.next() == .message(.ready))
            #expect(server.app.openLiveSockets == 1)
            feed.cancel()
            // Well inside the server's 30 s ping, which would end a socket the client left open.
            let deadline = ContinuousClock.now + .seconds(10)
            while server.app.openLiveSockets > 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(server.app.openLiveSockets == 0, "the server still holds the socket")
        }
    }

    @Test func connectionFailuresThrowKithErrors() async throws {
        let refused = LiveFeed(URL(string: "ws://127.0.0.1:\(try closedLoopbackPort())/v1/live")!, token: "t")
        #expect(await refused.next() == .failed(.offline))

        let silent = try SilentLoopbackListener()
        defer { silent.close() }
        let started = ContinuousClock.now
        let stalled = LiveFeed(
            URL(string: "ws://127.0.0.1:\(silent.port)/v1/live")!, token: "t",
            transport: NIOLiveTransport(connectTimeout: .seconds(1)))
        #expect(await stalled.next() == .failed(.timeout))
        #expect(ContinuousClock.now - started < .seconds(20))

        try await Self.withServer { server in
            // A path with no WebSocket: the server answers the upgrade request with a plain 404.
            let feed = LiveFeed(URL(string: "ws://127.0.0.1:\(server.port)/v1/me")!, token: "t")
            let event = await feed.next()
            guard case .failed(.invalidResponse) = event else {
                Issue.record("expected the refused upgrade as an invalid response, got \(event)")
                return
            }
        }
    }
}
