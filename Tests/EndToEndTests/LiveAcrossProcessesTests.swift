import Foundation
import KithCore
import KithKit
import KithTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Two `kith serve` processes on one PostgreSQL database: a device's live socket is on one, another
/// device pushes to the other, and the nudge crosses through NOTIFY/LISTEN.
@Suite(
    "Live nudges across server processes",
    .enabled(if: Engine.adminURL != nil, "KITH_TEST_DATABASE_URL is not set"))
struct LiveAcrossProcessesTests {
    @Test func aPushOnOneProcessNudgesASocketOnAnother() async throws {
        let scratch = try await PostgresScratch.create()
        var servers: [ServeProcess] = []
        var directories: [URL] = []
        do {
            for _ in 0..<2 {
                let data = try makeTemporaryDirectory("kith-e2e-serve")
                directories.append(data)
                servers.append(
                    try ServeProcess(
                        arguments: ["serve", "--data", data.path, "--port", "0", "--database-url", scratch.url],
                        environment: ["KITH_BCRYPT_COST": "4"]))
            }
            let (pushingURL, _) = try await servers[0].waitUntilServing()
            let (listeningURL, _) = try await servers[1].waitUntilServing()

            let client = KithClient(serverURL: pushingURL, store: InMemorySessionStore(), transport: URLSessionTransport(timeout: 30))
            _ = try await client.signUp(email: uniqueEmail("across"), password: "long enough password")
            let session = try #require(try await client.storedSession())
            let feed = LiveFeed(LiveFeed.url(of: listeningURL), token: session.accessToken)
            #expect(await feed.next() == .message(.ready))

            let scope = LiveTransportTests.scope(session)
            let id = UUID()
            let year = Mutation(
                mutationId: UUID(), entity: "outreach.year", id: id, scope: scope, op: .upsert,
                fields: OutreachSample.year("2026"), hlc: HLC(wallMillis: Int64(Date().timeIntervalSince1970 * 1000), counter: 0, node: "e2e"))
            #expect(try await client.push(PushRequest(clientId: UUID(), mutations: [year])).results.map(\.status) == [.applied])
            let seq = try #require(try await client.pull(cursor: nil, limit: 10).changes.first { $0.id == id }?.seq)
            #expect(await feed.next() == .message(.changed(scope: scope, seq: seq)))
            feed.cancel()
            for server in servers {
                server.signal(SIGTERM)
                #expect(try await server.waitForExit(timeout: .seconds(10)) == 0, "\(server.stdout)\n\(server.stderr)")
            }
        } catch {
            servers.forEach { $0.stop() }
            await scratch.drop()
            directories.forEach { try? FileManager.default.removeItem(at: $0) }
            throw error
        }
        servers.forEach { $0.stop() }
        await scratch.drop()
        directories.forEach { try? FileManager.default.removeItem(at: $0) }
    }
}
