import Foundation
import KithCore
import KithKit
import KithKitNIO
import KithTestSupport
import Testing

/// The live socket end to end: a started engine hears about another device's push at once (its
/// timer is set to ten minutes, so only the nudge can explain the speed), and `kith sync --watch`
/// prints the change.
@Suite("Live sync")
struct LiveSyncTests {
    @Test("a nudge on the live socket brings another device's change without waiting", arguments: Engine.available)
    func nudgeBringsTheChange(engine: Engine) async throws {
        try await LiveServer.run(engine) { server in
            let email = uniqueEmail("live")
            let phone = try await SyncDevice.make(server: server.url, email: email, signUp: true)
            let laptop = try await SyncDevice.make(server: server.url, email: email, live: NIOLiveTransport()) {
                $0.pollInterval = .seconds(600)
                $0.livePollInterval = .seconds(600)
            }
            let events = await laptop.engine.events()
            let connected = Locked(false)
            let watching = Task {
                for await event in events where event == .liveConnected { connected.value = true }
            }
            defer { watching.cancel() }
            await laptop.engine.start()
            defer { Task { await laptop.engine.stop() } }
            try await eventually { connected.value }

            let year = try phone.store.save("outreach.year", fields: OutreachSample.year("2026"))
            try await phone.engine.sync()
            try await eventually { try laptop.store.record("outreach.year", id: year) != nil }

            // And the other way round: a local write goes out without anyone asking.
            let ada = try laptop.store.save("outreach.contact", fields: OutreachSample.contact(year: year, first: "Ada", last: "Lovelace"))
            try await eventually { try laptop.store.pendingCount() == 0 }
            try await phone.engine.sync()
            #expect(try phone.store.record("outreach.contact", id: ada)?.string("firstName") == "Ada")
        }
    }

    @Test("kith sync --watch prints changes made elsewhere as they happen")
    func watchPrintsChanges() async throws {
        try await LiveServer.run { server in
            let home = try makeTemporaryDirectory("kith-e2e-watch")
            defer { try? FileManager.default.removeItem(at: home) }
            let email = uniqueEmail("watch")
            let phone = try await SyncDevice.make(server: server.url, email: email, signUp: true)
            let login = try await runKith(
                ["account", "login", email, "--server", server.url.absoluteString, "--profile", "laptop", "--password-stdin"],
                environment: ["KITH_HOME": home.path], stdin: "device password 1\n")
            try #require(login.status == 0, "\(login)")

            let watch = try ServeProcess(
                arguments: ["sync", "--watch", "--json", "--profile", "laptop"], environment: ["KITH_HOME": home.path])
            defer { watch.stop() }
            try await eventually { watch.stdout.contains(#""event":"live""#) }

            let year = try phone.store.save("outreach.year", fields: OutreachSample.year("2026"))
            try await phone.engine.sync()
            try await eventually { watch.stdout.contains(year.uuidString.lowercased()) }
            let line = try #require(watch.stdout.split(separator: "\n").first { $0.contains(year.uuidString.lowercased()) })
            #expect(line.contains(#""event":"changed""#), "\(line)")
            #expect(line.contains(#""entity":"outreach.year""#), "\(line)")
        }
    }
}

