import Foundation
import KithCore
import KithKit
import KithTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A device process killed (SIGKILL) while writing, before it ever pushed: every record it
/// committed kept its outbox entry (they commit together), nothing half-written remains, and the
/// next `kith sync` of that profile sends exactly what was committed.
@Suite("Sync survives a device crash")
struct ClientKillTests {
    @Test("a device killed while writing keeps its outbox, which the next sync sends")
    func killedWriterKeepsItsOutbox() async throws {
        try await LiveServer.run { server in
            let home = try makeTemporaryDirectory("kith-e2e-client-kill")
            defer { try? FileManager.default.removeItem(at: home) }
            let environment = ["KITH_HOME": home.path]
            let email = uniqueEmail("killed-writer")
            let signup = try await runKith(
                ["account", "signup", email, "--server", server.url.absoluteString, "--profile", "device", "--password-stdin", "--json"],
                environment: environment, stdin: "device password 1\n")
            try #require(signup.status == 0, "\(signup)")
            let idText = try #require(try signup.json()["id"] as? String)
            let userID = try #require(UUID(uuidString: idText))
            let stores = LocalStoreDirectory(url: home.appendingPathComponent("profiles/device/data"))

            // kith-bench writes contacts 500 per transaction, as an app importing a list would; after
            // four it writes half of a fifth and waits inside it, where the kill lands.
            let writer = try ServeProcess(
                arguments: ["fill", stores.url.path, idText, "200000", "500", "4"], environment: environment,
                executable: "kith-bench")
            defer { writer.stop() }
            try await eventually(within: .seconds(120)) { writer.stdout.contains("holding a transaction open") }
            writer.signal(SIGKILL)
            _ = try await writer.waitForExit(timeout: .seconds(10))

            let store = try stores.store(forUser: userID)
            let contacts = try store.records("outreach.contact").count
            #expect(contacts == 4 * 500, "only whole transactions remain, the one open at the kill is gone (\(contacts))")
            #expect(try store.pendingCount() == contacts + 1, "every committed record (and the year) is queued")

            let sync = try await runKith(
                ["sync", "--server", server.url.absoluteString, "--profile", "device", "--json"], environment: environment,
                timeout: 120)
            try #require(sync.status == 0, "\(sync)")
            #expect(try sync.json()["pushed"] as? Int == contacts + 1)

            let other = try await SyncDevice.make(server: server.url, email: email)
            try await other.engine.sync()
            #expect(try other.store.records("outreach.contact").count == contacts)
        }
    }
}
