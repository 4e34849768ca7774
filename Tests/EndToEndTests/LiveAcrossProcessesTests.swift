import Foundation
import KithCore
import KithKit
import KithTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Two server processes on one PostgreSQL database: a `kith serve` holding a device's live socket,
/// and this test process's server taking the push (`kith serve` declares no synced entities yet, so
/// only a server built here can apply one). The nudge crosses through NOTIFY/LISTEN.
@Suite(
    "Live nudges across server processes",
    .enabled(if: Engine.adminURL != nil, "KITH_TEST_DATABASE_URL is not set"))
struct LiveAcrossProcessesTests {
    @Test func aPushOnOneProcessNudgesASocketOnAnother() async throws {
        let scratch = try await PostgresScratch.create()
        let data = try makeTemporaryDirectory("kith-e2e-serve")
        defer { try? FileManager.default.removeItem(at: data) }
        let serve = try ServeProcess(
            arguments: ["serve", "--data", data.path, "--port", "0", "--database-url", scratch.url],
            environment: ["KITH_BCRYPT_COST": "4"])
        do {
            let (servedURL, _) = try await serve.waitUntilServing()
            // The in-process server uses the same database: `.sqlite` only means it makes none of its own.
            try await LiveServer.run(
                .sqlite,
                configure: {
                    $0.databaseURL = scratch.url
                    $0.entities = EntityCatalog([LiveTransportTests.note])
                }
            ) { pushing in
                let (client, session) = try await LiveTransportTests.signedIn(pushing)
                let feed = LiveFeed(LiveFeed.url(of: servedURL), token: session.accessToken)
                #expect(await feed.next() == .message(.ready))
                let seq = try await LiveTransportTests.pushNote(client, session)
                #expect(await feed.next() == .message(.changed(scope: LiveTransportTests.scope(session), seq: seq)))
                feed.cancel()
            }
            serve.signal(SIGTERM)
            #expect(try await serve.waitForExit(timeout: .seconds(10)) == 0, "\(serve.stdout)\n\(serve.stderr)")
        } catch {
            serve.stop()
            await scratch.drop()
            throw error
        }
        serve.stop()
        await scratch.drop()
    }
}
