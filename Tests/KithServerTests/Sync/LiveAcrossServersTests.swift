import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import SQLKit
import Testing

@testable import KithServer

/// Two servers on one PostgreSQL database: a push on one nudges live sockets on the other
/// (NOTIFY kith_changes / LISTEN).
@Suite("Live nudges across servers", .enabled(if: Engine.adminURL != nil, "KITH_TEST_DATABASE_URL is not set"))
struct LiveAcrossServersTests {
    static func withTwoServers(
        listenRetryDelay: Duration = LiveSettings().listenRetryDelay,
        _ body:
            @escaping @Sendable (
                _ first: (TestServer, Int, any TestClientProtocol), _ second: (TestServer, Int, any TestClientProtocol)
            )
            async throws -> Void
    ) async throws {
        let configure: @Sendable (inout ServerConfig) -> Void = {
            $0.entities = EntityCatalog([SyncAPITests.note])
            $0.live.listenRetryDelay = listenRetryDelay
        }
        try await TestServer.withLiveServer(.postgres, configure: configure) { first, firstPort, firstClient in
            let shared = try #require(first.config.databaseURL)
            try await TestServer.withLiveServer(.postgres, sharedDatabaseURL: shared, configure: configure) {
                second, secondPort, secondClient in
                try await body((first, firstPort, firstClient), (second, secondPort, secondClient))
            }
        }
    }

    @Test func aPushOnOneServerNudgesSocketsOnTheOtherOnce() async throws {
        try await Self.withTwoServers { first, second in
            let (firstServer, _, firstClient) = first
            let (secondServer, secondPort, secondClient) = second
            let session = try await firstClient.signUp("ada@example.com")
            let scope = LiveSocketTests.scope(of: session)
            let socket = try await LiveTestSocket.open(port: secondPort, token: session.accessToken)
            #expect(await socket.nextMessage() == .ready)

            var phone = SyncAPITests.device(session, node: "phone", server: firstServer)
            let pushedElsewhere = try await LiveSocketTests.pushNote(firstClient, &phone)
            #expect(await socket.nextMessage() == .changed(scope: scope, seq: pushedElsewhere))

            // Pushed on the socket's own server: nudged at once, and the NOTIFY echo is not sent again.
            var laptop = SyncAPITests.device(session, node: "laptop", server: secondServer)
            let pushedHere = try await LiveSocketTests.pushNote(secondClient, &laptop)
            #expect(await socket.nextMessage() == .changed(scope: scope, seq: pushedHere))
            let pushedLater = try await LiveSocketTests.pushNote(firstClient, &phone)
            #expect(await socket.nextMessage() == .changed(scope: scope, seq: pushedLater), "no duplicate in between")
            socket.close()
        }
    }

    @Test func aDroppedListenConnectionIsReopenedAndNoNudgeIsLost() async throws {
        // Slow to reconnect, so the push below usually lands while no server listens.
        try await Self.withTwoServers(listenRetryDelay: .seconds(2)) { first, second in
            let (firstServer, _, firstClient) = first
            let (secondServer, secondPort, _) = second
            let session = try await firstClient.signUp("ada@example.com")
            let socket = try await LiveTestSocket.open(port: secondPort, token: session.accessToken)
            #expect(await socket.nextMessage() == .ready)

            // Once both servers listen, cut their LISTEN connections and push at once: the change,
            // committed while nobody listens, is nudged by the catch-up after LISTEN reopens.
            let deadline = ContinuousClock.now + .seconds(30)
            while try await Self.listeners(secondServer.app.database) < 2, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(try await Self.terminateListeners(secondServer.app.database) == 2)
            var phone = SyncAPITests.device(session, node: "phone", server: firstServer)
            let seq = try await LiveSocketTests.pushNote(firstClient, &phone)
            #expect(await socket.nextMessage() == .changed(scope: LiveSocketTests.scope(of: session), seq: seq))
            socket.close()
        }
    }

    /// How many connections to this database are listening (their last statement was LISTEN).
    static func listeners(_ database: KithDatabase) async throws -> Int {
        try await database.run { sql in
            try await sql.raw(
                """
                SELECT count(*) AS listening FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'
                """
            ).first(decodingColumn: "listening", as: Int.self) ?? 0
        }
    }

    /// Ends every connection to this database whose last statement was LISTEN; how many it ended.
    static func terminateListeners(_ database: KithDatabase) async throws -> Int {
        try await database.run { sql in
            try await sql.raw(
                """
                SELECT count(pg_terminate_backend(pid)) AS ended FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'
                """
            ).first(decodingColumn: "ended", as: Int.self) ?? 0
        }
    }
}
