import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Write keys are kept as long as a writer might replay (`WriteKey.keptForDays`), then forgotten.
@Suite("Expired write keys job")
struct ExpiredWriteKeysJobTests {
    @Test(arguments: Engine.available)
    func keysAreForgottenOnceNoReplayCanComeAnyMore(engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: JobTesting.configure([])) { server, client in
            let ada = try await client.signUp("ada@example.com").user.id.lowercased
            let today = LocalDate(server.clock.now, in: ExpiredWriteKeysJob.utc)
            // Today's run first: it enqueues tomorrow's, the one the jump below makes due.
            try await server.app.jobsCaughtUp()
            #expect(try await JobTesting.status(server, "sync.expired-write-keys \(today)") == .done)
            let answer: @Sendable (OutreachYear) -> String = { $0.name }
            _ = try await server.app.operations.apply(OutreachOperations.addYear("2031"), userID: ada, key: "old", answer: answer)

            // Tomorrow's run is due from the first day of the jump on: it runs at its end (and
            // enqueues the day after).
            server.clock.advance(by: Double(WriteKey.keptForDays - 1) * 86_400)
            try await server.app.jobsCaughtUp()
            #expect(try await JobTesting.status(server, "sync.expired-write-keys \(today.adding(days: 1))") == .done)
            #expect(try await Self.keys(server) == ["old"], "a key a day short of its time is kept")

            _ = try await server.app.operations.apply(OutreachOperations.addYear("2032"), userID: ada, key: "new", answer: answer)
            server.clock.advance(by: 2 * 86_400)
            try await server.app.jobsCaughtUp()
            let gone = today.adding(days: WriteKey.keptForDays)
            #expect(try await JobTesting.status(server, "sync.expired-write-keys \(gone)") == .done)
            #expect(try await Self.keys(server) == ["new"])
        }
    }

    private static func keys(_ server: TestServer) async throws -> Set<String> {
        try await server.app.database.run { sql in
            Set(try await sql.raw("SELECT key FROM write_keys").all(decodingColumn: "key", as: String.self))
        }
    }
}
