import Foundation
import KithCore
import KithKit
import KithServer
import KithTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `kith serve` process killed (SIGKILL, no shutdown at all) while a device is pushing, then
/// started again on the same data: nothing the device queued is lost, and nothing is applied twice.
@Suite("Sync survives a server crash")
struct ServerCrashTests {
    static let contacts = 1_000

    @Test("a server killed in the middle of a push loses nothing and duplicates nothing", arguments: Engine.available)
    func killedMidPush(engine: Engine) async throws {
        let data = try makeTemporaryDirectory("kith-e2e-crash")
        defer { try? FileManager.default.removeItem(at: data) }
        let scratch = try await PostgresScratch.create(for: engine)
        var arguments = ["serve", "--data", data.path]
        if let scratch { arguments += ["--database-url", scratch.url] }
        let environment = ["KITH_BCRYPT_COST": "4"]

        let first = try ServeProcess(arguments: arguments + ["--port", "0"], environment: environment)
        defer { first.stop() }
        let (url, _) = try await first.waitUntilServing()
        let email = uniqueEmail("crash")
        let phone = try await SyncDevice.make(server: url, email: email, signUp: true) { $0.pushBatchSize = 100 }
        var made: Set<UUID> = []
        try phone.store.write { transaction in
            let year = try transaction.save("outreach.year", fields: OutreachSample.year("2026"))
            made.insert(year)
            for index in 0..<Self.contacts {
                made.insert(
                    try transaction.save(
                        "outreach.contact", fields: OutreachSample.contact(year: year, first: "Person", last: "No. \(index)")))
            }
        }

        // Kill the server as soon as the first batch is acknowledged: the next one is in flight.
        let events = await phone.engine.events()
        let acknowledged = Locked(false)
        let watching = Task {
            for await event in events {
                if case .pushed = event { acknowledged.value = true }
            }
        }
        defer { watching.cancel() }
        let pushing = Task { try await phone.engine.sync() }
        try await eventually(within: .seconds(60)) { acknowledged.value }
        first.signal(SIGKILL)
        let interrupted = await pushing.result
        #expect(throws: KithError.self) { try interrupted.get() }
        let left = try phone.store.pendingCount()
        #expect(left > 0 && left < Self.contacts, "the kill came mid-push (\(left) left)")

        let second = try ServeProcess(arguments: arguments + ["--port", String(url.port!)], environment: environment)
        defer { second.stop() }
        _ = try await second.waitUntilServing()
        try await phone.engine.sync()
        #expect(try phone.store.pendingCount() == 0)

        let laptop = try await SyncDevice.make(server: url, email: email)
        try await laptop.engine.sync()
        #expect(Set(try laptop.outreachSnapshot().keys) == made, "every queued record arrived")
        #expect(try laptop.outreachSnapshot() == phone.outreachSnapshot())

        // On the server: each mutation applied once, each record written once.
        let location: DatabaseLocation = scratch.map { .postgres(url: $0.url) } ?? .sqlite(path: data.appendingPathComponent("kith.sqlite").path)
        let database = try await KithDatabase.open(location, logger: quietLogger, migrate: false)
        let counts = try await database.run { sql in
            (
                try await sql.raw("SELECT COUNT(*) AS n FROM sync_mutations").first(decodingColumn: "n", as: Int.self),
                try await sql.raw("SELECT COUNT(*) AS n FROM sync_records").first(decodingColumn: "n", as: Int.self),
                try await sql.raw("SELECT CAST(COALESCE(SUM(value), 0) AS BIGINT) AS value FROM sync_scope_counters").first(decodingColumn: "value", as: Int.self)
            )
        }
        await database.close()
        #expect(counts.0 == made.count)
        #expect(counts.1 == made.count)
        #expect(counts.2 == made.count, "no change was applied twice")
        second.stop()
        _ = try await second.waitForExit(timeout: .seconds(20))
        await scratch?.drop()
    }
}
