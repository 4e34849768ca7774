import Foundation
import KithCore
import KithKit
import KithTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `kith serve` as a real process: it says where it serves, answers, and stops gracefully.
@Suite("kith serve (a real process)")
struct ServeCommandTests {
    enum StopSignal: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sigterm, sigint
        var number: Int32 { self == .sigterm ? SIGTERM : SIGINT }
        var testDescription: String { rawValue.uppercased() }
    }

    @Test("serves SQLite on a free port, answers /healthz, and exits 0 on a stop signal", arguments: StopSignal.allCases)
    func servesAndStops(signal: StopSignal) async throws {
        let data = try makeTemporaryDirectory("kith-e2e-serve")
        defer { try? FileManager.default.removeItem(at: data) }
        let serve = try ServeProcess(
            arguments: ["serve", "--data", data.path, "--port", "0"], environment: ["KITH_BCRYPT_COST": "4"])
        defer { serve.stop() }

        let (url, line) = try await serve.waitUntilServing()
        #expect(url.host == "127.0.0.1")
        #expect((url.port ?? 0) > 0, "port 0 must be replaced by the bound port: \(line)")
        #expect(line.contains("(SQLite at \(data.path)/kith.sqlite)"), "\(line)")

        let health = try await healthz(url)
        #expect(health.status == 200)
        #expect(health.body["status"] == "ok")
        #expect(health.body["database"] == "sqlite")
        #expect(health.body["writable"] == true)

        // The server works for a real client too.
        let client = KithClient(serverURL: url, store: InMemorySessionStore())
        let user = try await client.signUp(email: uniqueEmail("served"), password: "long enough password")
        #expect(try await client.me() == user)

        serve.signal(signal.number)
        let status = try await serve.waitForExit(timeout: .seconds(10))
        #expect(status != nil, "kith serve did not stop within 10 s of \(signal.testDescription)")
        #expect(status == 0, "kith serve should exit 0 after a graceful shutdown\n\(serve.stdout)\n\(serve.stderr)")
        #expect(serve.process.terminationReason == .exit)
        let refused = await expectKithError { try await client.me() }
        #expect(refused == .offline, "the port is closed after shutdown")
    }

    @Test("serves PostgreSQL with --database-url", .enabled(if: Engine.adminURL != nil, "KITH_TEST_DATABASE_URL is not set"))
    func servesPostgres() async throws {
        let scratch = try await PostgresScratch.create()
        let data = try makeTemporaryDirectory("kith-e2e-serve")
        defer { try? FileManager.default.removeItem(at: data) }
        let serve = try ServeProcess(
            arguments: ["serve", "--data", data.path, "--port", "0", "--database-url", scratch.url],
            environment: ["KITH_BCRYPT_COST": "4"])
        do {
            let (url, line) = try await serve.waitUntilServing()
            #expect(line.contains("(PostgreSQL)"), "\(line)")
            #expect(!line.contains(scratch.url), "the database URL (with its password) is not printed")
            let health = try await healthz(url)
            #expect(health.status == 200)
            #expect(health.body["status"] == "ok")
            #expect(health.body["database"] == "postgres")
            serve.signal(SIGTERM)
            let status = try await serve.waitForExit(timeout: .seconds(10))
            #expect(status == 0, "\(serve.stdout)\n\(serve.stderr)")
        } catch {
            serve.stop()
            await scratch.drop()
            throw error
        }
        serve.stop()
        await scratch.drop()
    }

    @Test("stops promptly on SIGTERM with a live socket open, closing it")
    func stopsWithALiveSocketOpen() async throws {
        let data = try makeTemporaryDirectory("kith-e2e-serve")
        defer { try? FileManager.default.removeItem(at: data) }
        let serve = try ServeProcess(
            arguments: ["serve", "--data", data.path, "--port", "0"], environment: ["KITH_BCRYPT_COST": "4"])
        defer { serve.stop() }
        let (url, _) = try await serve.waitUntilServing()
        let client = KithClient(serverURL: url, store: InMemorySessionStore())
        _ = try await client.signUp(email: uniqueEmail("live"), password: "long enough password")
        let token = try #require(try await client.storedSession()).accessToken
        let feed = LiveFeed(LiveFeed.url(of: url), token: token)
        #expect(await feed.next() == .message(.ready))

        serve.signal(SIGTERM)
        let status = try await serve.waitForExit(timeout: .seconds(10))
        #expect(status == 0, "kith serve should exit 0 within 10 s\n\(serve.stdout)\n\(serve.stderr)")
        #expect(await feed.next() == .finished, "the socket is closed, not dropped")
    }

    @Test("a database URL that is not PostgreSQL fails fast with a clear message")
    func badDatabaseURL() async throws {
        let data = try makeTemporaryDirectory("kith-e2e-serve")
        defer { try? FileManager.default.removeItem(at: data) }
        let started = ContinuousClock.now
        let run = try await runKith(
            ["serve", "--data", data.path, "--port", "0", "--database-url", "mysql://x"], environment: [:], timeout: 20)
        #expect(run.status != 0, "\(run)")
        #expect(run.stderr.contains("postgres://"), "\(run)")
        #expect(!run.stdout.contains("Kith is serving"), "\(run)")
        #expect(ContinuousClock.now - started < .seconds(15))
    }

    @Test("a listen URL that is not PostgreSQL, or without a database URL, fails fast with a clear message")
    func badDatabaseListenURL() async throws {
        let data = try makeTemporaryDirectory("kith-e2e-serve")
        defer { try? FileManager.default.removeItem(at: data) }
        let notPostgres = try await runKith(
            ["serve", "--data", data.path, "--port", "0", "--database-url", "postgres://kith@127.0.0.1:1/kith"],
            environment: ["KITH_DATABASE_LISTEN_URL": "redis://x"], timeout: 20)
        #expect(notPostgres.status != 0, "\(notPostgres)")
        #expect(notPostgres.stderr.contains("the database listen URL must look like postgres://"), "\(notPostgres)")
        let alone = try await runKith(
            ["serve", "--data", data.path, "--port", "0", "--database-listen-url", "postgres://kith@127.0.0.1:1/kith"],
            environment: [:], timeout: 20)
        #expect(alone.status != 0, "\(alone)")
        #expect(alone.stderr.contains("a database listen URL needs a database URL"), "\(alone)")
    }

    @Test("a bad KITH_PORT fails fast with a clear message")
    func badPortEnvironment() async throws {
        let data = try makeTemporaryDirectory("kith-e2e-serve")
        defer { try? FileManager.default.removeItem(at: data) }
        let run = try await runKith(["serve", "--data", data.path], environment: ["KITH_PORT": "eighty"], timeout: 20)
        #expect(run.status != 0, "\(run)")
        #expect(run.stderr.contains("KITH_PORT must be a port number"), "\(run)")
    }

    private func healthz(_ url: URL) async throws -> (status: Int, body: JSONTree) {
        let response = try await URLSessionTransport(timeout: 30).send(
            HTTPExchangeRequest(method: "GET", url: url.appendingPathComponent("healthz")))
        return (response.status, JSONTree.parse(response.body) ?? .null)
    }
}
