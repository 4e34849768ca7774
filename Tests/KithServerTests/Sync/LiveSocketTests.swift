import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

/// `/v1/live` on a server listening on loopback, spoken to by a plain WebSocket client.
@Suite("Live socket")
struct LiveSocketTests {
    static func withServer(
        _ engine: Engine, configure: @escaping (inout ServerConfig) -> Void = { _ in },
        _ body: @escaping @Sendable (TestServer, Int, any TestClientProtocol) async throws -> Void
    ) async throws {
        try await TestServer.withLiveServer(
            engine,
            configure: {
                $0.entities = EntityCatalog([SyncAPITests.note])
                configure(&$0)
            }, body)
    }

    /// Pushes one new note as `device` and returns the sequence value the change got.
    static func pushNote(_ client: any TestClientProtocol, _ device: inout SyncAPITests.Device) async throws -> Int64 {
        let id = UUID()
        let pushed = try await SyncAPITests.push(
            client, device, [device.mutation(id, .upsert, ["title": .string("Buy milk")])])
        #expect(pushed.results.map(\.status) == [.applied])
        let change = try await SyncAPITests.pull(client, device).changes.first { $0.id == id }
        return try #require(change?.seq)
    }

    static func scope(of session: AuthSessionResponse) -> String { "user:\(session.user.id.uuidString.lowercased())" }

    @Test(arguments: Engine.available)
    func aTokenInTheHeaderGetsReady(engine: Engine) async throws {
        try await Self.withServer(engine) { _, port, client in
            let ada = try await client.signUp("ada@example.com")
            let socket = try await LiveTestSocket.open(port: port, token: ada.accessToken)
            #expect(await socket.nextMessage() == .ready)
            socket.close()

            let created = try await client.call(
                .post, "/v1/tokens", json: #"{"name":"script"}"#, token: ada.accessToken)
            let personal = try #require(try created.decode(PersonalTokenDTO.self).token)
            let scripted = try await LiveTestSocket.open(port: port, token: personal)
            #expect(await scripted.nextMessage() == .ready, "personal access tokens work too")
            scripted.close()
        }
    }

    @Test(arguments: Engine.available)
    func aTokenInTheFirstMessageGetsReady(engine: Engine) async throws {
        try await Self.withServer(engine) { _, port, client in
            let ada = try await client.signUp("ada@example.com")
            let socket = try await LiveTestSocket.open(port: port)
            try await socket.send(.auth(token: ada.accessToken))
            #expect(await socket.nextMessage() == .ready)
            socket.close()
        }
    }

    @Test(arguments: Engine.available)
    func aBadTokenIsAnsweredWithAnErrorAndAClose(engine: Engine) async throws {
        try await Self.withServer(engine) { server, port, client in
            let ada = try await client.signUp("ada@example.com")
            let refusals: [(header: String?, firstMessage: String?, situation: String)] = [
                ("Bearer not-a-token", nil, "unknown token in the header"),
                ("Basic YWRhOnNlY3JldA==", nil, "a header that is not Bearer"),
                (nil, LiveMessage.auth(token: "not-a-token").text, "unknown token in the first message"),
                (nil, "hello", "a first message that is not auth"),
                (nil, #"{"type":"ready"}"#, "a first message of another type"),
            ]
            // Each waits for the server's close, which comes a moment after the error: all at once.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for refusal in refusals {
                    group.addTask {
                        let socket = try await LiveTestSocket.open(port: port, authorization: refusal.header)
                        if let firstMessage = refusal.firstMessage { try await socket.send(firstMessage) }
                        let answer = await socket.nextMessage()
                        #expect(answer?.type == .error, "\(refusal.situation)")
                        #expect(answer?.code == "unauthorized", "\(refusal.situation)")
                        #expect(answer?.message?.isEmpty == false, "\(refusal.situation)")
                        await socket.expectClosed()
                    }
                }
                try await group.waitForAll()
            }

            server.clock.advance(by: 3601)
            let expired = try await LiveTestSocket.open(port: port, token: ada.accessToken)
            #expect(
                await expired.nextMessage()?.code == "token_expired",
                "an expired token says so, so the device refreshes")
            await expired.expectClosed()
        }
    }

    @Test(arguments: Engine.available)
    func aSocketThatNeverAuthenticatesIsClosed(engine: Engine) async throws {
        try await Self.withServer(engine, configure: { $0.live.authTimeout = .milliseconds(200) }) { _, port, _ in
            let socket = try await LiveTestSocket.open(port: port)
            let answer = await socket.nextMessage()
            #expect(answer?.code == "unauthorized")
            #expect(answer?.message?.contains("No token") == true, "\(String(describing: answer))")
            await socket.expectClosed()
        }
    }

    @Test(arguments: Engine.available)
    func aPushFromOneDeviceNudgesEveryLiveSocketOfTheUser(engine: Engine) async throws {
        try await Self.withServer(engine) { server, port, client in
            let phoneSession = try await client.signUp("ada@example.com")
            let laptopSession = try await client.logIn("ada@example.com", "correct horse").decode(
                AuthSessionResponse.self)
            let laptop = try await LiveTestSocket.open(port: port, token: laptopSession.accessToken)
            let phoneSocket = try await LiveTestSocket.open(port: port, token: phoneSession.accessToken)
            #expect(await laptop.nextMessage() == .ready)
            #expect(await phoneSocket.nextMessage() == .ready)
            #expect(server.app.openLiveSockets == 2)

            var phone = SyncAPITests.device(phoneSession, node: "phone", server: server)
            let batch = [
                phone.mutation(UUID(), .upsert, ["title": .string("one")]),
                phone.mutation(UUID(), .upsert, ["title": .string("two")]),
            ]
            #expect(try await SyncAPITests.push(client, phone, batch).results.map(\.status) == [.applied, .applied])
            let latest = try #require(try await SyncAPITests.pull(client, phone).changes.map(\.seq).max())
            let scope = Self.scope(of: phoneSession)
            // One nudge per scope and batch, with its latest sequence value.
            #expect(await laptop.nextMessage() == .changed(scope: scope, seq: latest))
            #expect(
                await phoneSocket.nextMessage() == .changed(scope: scope, seq: latest),
                "the pushing device's socket hears it too")

            let next = try await Self.pushNote(client, &phone)
            #expect(next > latest)
            #expect(await laptop.nextMessage() == .changed(scope: scope, seq: next))
            laptop.close()
            phoneSocket.close()
        }
    }

    @Test(arguments: Engine.available)
    func anotherUsersPushDoesNotNudge(engine: Engine) async throws {
        try await Self.withServer(engine) { server, port, client in
            let adaSession = try await client.signUp("ada@example.com")
            let bobSession = try await client.signUp("bob@example.com")
            let socket = try await LiveTestSocket.open(port: port, token: adaSession.accessToken)
            #expect(await socket.nextMessage() == .ready)

            var bob = SyncAPITests.device(bobSession, node: "bob", server: server)
            _ = try await Self.pushNote(client, &bob)
            var ada = SyncAPITests.device(adaSession, node: "ada", server: server)
            let adaSeq = try await Self.pushNote(client, &ada)
            // Bob's push came first; had it been nudged here, it would arrive before Ada's.
            #expect(await socket.nextMessage() == .changed(scope: Self.scope(of: adaSession), seq: adaSeq))
            socket.close()
        }
    }

    @Test(arguments: Engine.available)
    func messagesItDoesNotUnderstandAreAnsweredAndTheSocketStaysUsable(engine: Engine) async throws {
        try await Self.withServer(engine) { server, port, client in
            let session = try await client.signUp("ada@example.com")
            let socket = try await LiveTestSocket.open(port: port, token: session.accessToken)
            #expect(await socket.nextMessage() == .ready)

            try await socket.send("not json")
            #expect(await socket.nextMessage()?.code == "bad_request")
            try await socket.write(.binary(ByteBuffer(bytes: [0, 159, 146, 150])))
            #expect(await socket.nextMessage()?.code == "bad_request")
            // Live messages that mean nothing from a device are ignored without an answer.
            try await socket.send(#"{"type":"changed","scope":"user:someone-else","seq":1}"#)
            try await socket.send(.auth(token: "another"))

            var phone = SyncAPITests.device(session, node: "phone", server: server)
            let seq = try await Self.pushNote(client, &phone)
            #expect(await socket.nextMessage() == .changed(scope: Self.scope(of: session), seq: seq))
            socket.close()
        }
    }

    @Test(arguments: Engine.available)
    func pingsAreAnsweredAndBrokenFramesCloseOnlyTheirSocket(engine: Engine) async throws {
        try await Self.withServer(engine) { _, port, client in
            let session = try await client.signUp("ada@example.com")
            let raw = try await RawWebSocket.open(port: port, token: session.accessToken)
            let ready = try #require(try await raw.nextFrame())
            #expect(ready.opcode == RawWebSocket.text)
            #expect(LiveMessage(text: ready.text) == .ready)

            try await raw.send(opcode: RawWebSocket.ping, Array("are you there".utf8))
            let pong = try #require(try await raw.nextFrame())
            #expect(pong.opcode == RawWebSocket.pong)
            #expect(pong.text == "are you there")

            // Opcode 3 is reserved: a protocol error, answered with a close frame (1002).
            try await raw.send(opcode: 0x3, Array("garbage".utf8))
            let close = try #require(try await raw.nextFrame())
            #expect(close.opcode == RawWebSocket.close)
            #expect(close.payload.prefix(2) == [0x03, 0xEA])

            let oversized = try await LiveTestSocket.open(port: port, token: session.accessToken)
            #expect(await oversized.nextMessage() == .ready)
            try await oversized.send(String(repeating: "x", count: 40_000))
            await oversized.expectClosed()

            let other = try await LiveTestSocket.open(port: port, token: session.accessToken)
            #expect(await other.nextMessage() == .ready, "the server keeps serving")
            other.close()
        }
    }

    @Test(arguments: Engine.available)
    func shutdownClosesLiveSocketsPromptlyEvenWhenADeviceNeverAnswers(engine: Engine) async throws {
        let sockets = Locked<(LiveTestSocket, RawWebSocket)?>(nil)
        let bodyEnded = Locked<ContinuousClock.Instant?>(nil)
        try await Self.withServer(engine) { _, port, client in
            let session = try await client.signUp("ada@example.com")
            let polite = try await LiveTestSocket.open(port: port, token: session.accessToken)
            #expect(await polite.nextMessage() == .ready)
            // After ready it reads nothing and never answers the close frame.
            let silent = try await RawWebSocket.open(port: port, token: session.accessToken)
            #expect(LiveMessage(text: try #require(try await silent.nextFrame()).text) == .ready)
            sockets.value = (polite, silent)
            bodyEnded.value = .now
        }
        let shutdown = ContinuousClock.now - (try #require(bodyEnded.value))
        #expect(shutdown < .seconds(25), "graceful shutdown took \(shutdown)")
        let (polite, silent) = try #require(sockets.value)
        await polite.expectClosed()
        var frames: [UInt8] = []
        while let frame = try await silent.nextFrame() {
            if frame.opcode != RawWebSocket.ping { frames.append(frame.opcode) }
        }
        #expect(frames == [RawWebSocket.close], "the close frame, then the connection ends")
    }

    @Test func aPlainGetIsToldToUpgrade() async throws {
        try await TestServer.withRouter(.sqlite) { _, client in
            let response = try await client.call(.get, "/v1/live")
            #expect(response.status == .upgradeRequired)
            #expect(response.headers[.upgrade] == "websocket")
            #expect(response.error?.code == "bad_request")
        }
    }
}
