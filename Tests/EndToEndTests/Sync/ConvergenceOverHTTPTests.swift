import Foundation
import KithCore
import KithKit
import KithTestSupport
import Testing

/// Devices syncing through a real server over loopback HTTP (docs/sync.md's promises, seed 002 reqs. 5-9).
@Suite("Sync between devices")
struct ConvergenceOverHTTPTests {
    @Test("edits made offline on two devices converge after both reconnect", arguments: Engine.available)
    func offlineEditsConverge(engine: Engine) async throws {
        try await LiveServer.run(engine) { server in
            let email = uniqueEmail("converge")
            let phone = try await SyncDevice.make(server: server.url, email: email, signUp: true)
            let laptop = try await SyncDevice.make(server: server.url, email: email)

            let year = try phone.store.save("outreach.year", fields: OutreachSample.year("2026"))
            let ada = try phone.store.save("outreach.contact", fields: OutreachSample.contact(year: year, first: "Ada", last: "Lovelace"))
            let alan = try phone.store.save("outreach.contact", fields: OutreachSample.contact(year: year, first: "Alan", last: "Turing"))
            let grace = try phone.store.save("outreach.contact", fields: OutreachSample.contact(year: year, first: "Grace", last: "Hopper"))
            try await phone.engine.sync()
            try await laptop.engine.sync()
            #expect(try laptop.outreachSnapshot() == phone.outreachSnapshot())

            phone.network.isOnline = false
            laptop.network.isOnline = false
            // On the phone: Ada delivered, a note on Alan, Grace deleted.
            try phone.store.save("outreach.contact", id: ada, fields: ["delivered": .bool(true), "deliveredAt": .string("2026-11-21T10:00:00.000Z")])
            try phone.store.save("outreach.contact", id: alan, fields: ["comments": .string("phone's note")])
            try phone.store.delete("outreach.contact", id: grace)
            try await Task.sleep(for: .milliseconds(5))
            // Later, on the laptop: a comment on Ada, a newer note on Alan, an edit of Grace, a new person.
            try laptop.store.save("outreach.contact", id: ada, fields: ["comments": .string("laptop's comment")])
            try laptop.store.save("outreach.contact", id: alan, fields: ["comments": .string("laptop's note")])
            try laptop.store.save("outreach.contact", id: grace, fields: ["firstName": .string("Rear Admiral Grace")])
            let linus = try laptop.store.save("outreach.contact", fields: OutreachSample.contact(year: year, first: "Linus", last: "Torvalds"))

            #expect(await expectKithError { try await phone.engine.sync() } == .offline)
            #expect(await phone.engine.status == .offline(pending: 3))

            phone.network.isOnline = true
            laptop.network.isOnline = true
            try await phone.engine.sync()
            let laptopReport = try await laptop.engine.sync()
            try await phone.engine.sync()
            #expect(laptopReport.rejected.map(\.code) == ["deleted"], "the edit of a deleted person is refused and surfaced")
            // The laptop met the phone's changes with its own unsent ones, and says how each ended.
            let conflicts = Dictionary(uniqueKeysWithValues: laptopReport.conflicts.map { ($0.id, $0) })
            #expect(conflicts[grace]?.deletedElsewhere == true)
            #expect(conflicts[alan]?.keptLocal == ["comments"], "the laptop's later note won")
            #expect(conflicts[ada] == nil, "different fields of one person are not a conflict")

            let merged = try phone.outreachSnapshot()
            #expect(try laptop.outreachSnapshot() == merged)
            #expect(merged[ada]?["delivered"] == .bool(true))
            #expect(merged[ada]?["comments"] == .string("laptop's comment"))
            #expect(merged[alan]?["comments"] == .string("laptop's note"), "the later edit wins")
            #expect(merged[grace] == nil, "the deletion wins over the later edit")
            #expect(merged[linus]?["firstName"] == .string("Linus"))
            #expect(await phone.engine.status == .idle)
            #expect(await laptop.engine.status == .idle)

            // A third device that signs in later gets exactly the same data.
            let tablet = try await SyncDevice.make(server: server.url, email: email)
            try await tablet.engine.sync()
            #expect(try tablet.outreachSnapshot() == merged)
        }
    }

    @Test("another account's records are never pulled, and writing into its scope is refused")
    func accountsAreIsolated() async throws {
        try await LiveServer.run { server in
            let ada = try await SyncDevice.make(server: server.url, email: uniqueEmail("ada"), signUp: true)
            let bob = try await SyncDevice.make(server: server.url, email: uniqueEmail("bob"), signUp: true)
            try ada.store.save("outreach.year", fields: OutreachSample.year("2026"))
            try await ada.engine.sync()
            try await bob.engine.sync()
            #expect(try bob.outreachSnapshot().isEmpty)

            // Bob's client forges a push into Ada's scope.
            let forged = Mutation(
                mutationId: UUID(), entity: "outreach.year", id: UUID(), scope: "user:\(ada.userID.uuidString.lowercased())",
                op: .upsert, fields: OutreachSample.year("stolen"), hlc: HLC(wallMillis: 1, counter: 0, node: "bob"))
            let answer = try await bob.client.push(PushRequest(clientId: UUID(), mutations: [forged]))
            #expect(answer.results.map(\.code) == ["forbidden"])
            try await ada.engine.sync()
            #expect(try ada.store.records("outreach.year").map { $0.string("name") } == ["2026"])
        }
    }

    @Test("a device's queued changes survive the app being killed before its push", arguments: Engine.available)
    func outboxSurvivesAKilledClient(engine: Engine) async throws {
        try await LiveServer.run(engine) { server in
            let directory = try makeTemporaryDirectory("kith-e2e-device")
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("store.sqlite")
            let email = uniqueEmail("killed")
            var written: [UUID: [String: JSONTree]] = [:]
            do {
                // The app writes and is gone before any sync: no close, no flush, no push.
                let device = try await SyncDevice.make(server: server.url, email: email, signUp: true, storeURL: file)
                let year = try device.store.save("outreach.year", fields: OutreachSample.year("2026"))
                try device.store.save("outreach.contact", fields: OutreachSample.contact(year: year, first: "Ada", last: "Lovelace"))
                written = try device.outreachSnapshot()
            }
            let restarted = try await SyncDevice.make(server: server.url, email: email, storeURL: file)
            #expect(try restarted.store.pendingCount() == 2)
            try await restarted.engine.sync()
            let other = try await SyncDevice.make(server: server.url, email: email)
            try await other.engine.sync()
            #expect(try other.outreachSnapshot() == written)
        }
    }

    @Test("data made before sign-up is adopted by the new account and reaches its other devices")
    func anonymousDataIsAdopted() async throws {
        try await LiveServer.run { server in
            let directory = LocalStoreDirectory(url: try makeTemporaryDirectory("kith-e2e-stores"))
            defer { try? FileManager.default.removeItem(at: directory.url) }
            let made = try {
                let anonymous = try directory.anonymousStore()
                let year = try anonymous.save("outreach.year", fields: OutreachSample.year("2026"))
                try anonymous.save("outreach.contact", fields: OutreachSample.contact(year: year, first: "Ada", last: "Lovelace"))
                return Set(try anonymous.records("outreach.contact").map(\.id) + [year])
            }()

            let email = uniqueEmail("adopt")
            let client = KithClient(serverURL: server.url, store: InMemorySessionStore(), transport: URLSessionTransport(timeout: 30))
            let user = try await client.signUp(email: email, password: "device password 1")
            let store = try directory.store(forUser: user.id)
            #expect(try directory.adoptAnonymousData(into: store) == 2)
            try await SyncEngine(store: store, service: client).sync()

            let elsewhere = try await SyncDevice.make(server: server.url, email: email)
            try await elsewhere.engine.sync()
            #expect(Set(try elsewhere.outreachSnapshot().keys) == made)
        }
    }
}
