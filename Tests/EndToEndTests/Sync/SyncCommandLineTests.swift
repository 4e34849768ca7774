import Foundation
import KithCore
import KithKit
import KithTestSupport
import Testing

/// `kith sync` and `kith status` as real processes. A test writes into a profile's local store
/// with KithKit, as an app on the same device would; the CLI then syncs it.
@Suite("kith sync and kith status (command line)")
struct SyncCommandLineTests {
    struct Profile {
        let name: String
        let home: URL
        let server: URL

        var environment: [String: String] { ["KITH_HOME": home.path] }
        var stores: LocalStoreDirectory { LocalStoreDirectory(url: home.appendingPathComponent("profiles/\(name)/data")) }

        func kith(_ arguments: [String], stdin: String? = nil) async throws -> KithRun {
            try await runKith(arguments + ["--server", server.absoluteString, "--profile", name], environment: environment, stdin: stdin)
        }

        func json(_ arguments: [String], stdin: String? = nil) async throws -> [String: Any] {
            let run = try await kith(arguments + ["--json"], stdin: stdin)
            try #require(run.status == 0, "\(arguments): \(run)")
            return try run.json()
        }
    }

    @Test("status before and after a sync, a second profile receives, a stopped server shows offline")
    func syncAndStatus() async throws {
        try await LiveServer.run { server in
            let home = try makeTemporaryDirectory("kith-e2e-sync-cli")
            defer { try? FileManager.default.removeItem(at: home) }
            let email = uniqueEmail("sync-cli")
            let password = "sync cli password"
            let laptop = Profile(name: "laptop", home: home, server: server.url)
            let phone = Profile(name: "phone", home: home, server: server.url)

            let user = try await laptop.json(["account", "signup", email, "--password-stdin"], stdin: password + "\n")
            let idText = try #require(user["id"] as? String)
            let userID = try #require(UUID(uuidString: idText))
            let store = try laptop.stores.store(forUser: userID)
            let year = try store.save("outreach.year", fields: OutreachSample.year("2026"))
            try store.save("outreach.contact", fields: OutreachSample.contact(year: year, first: "Ada", last: "Lovelace"))

            let before = try await laptop.json(["status"])
            #expect(before["signedIn"] as? Bool == true)
            #expect(before["online"] as? Bool == true)
            #expect(before["pending"] as? Int == 2)
            #expect(before["lastSyncAt"] == nil)
            let text = try await laptop.kith(["status"])
            #expect(text.stdout.contains("Signed in as \(email)"), "\(text)")
            #expect(text.stdout.contains("2 changes waiting to be sent"), "\(text)")
            #expect(text.stdout.contains("Never synced"), "\(text)")

            let synced = try await laptop.json(["sync"])
            #expect(synced["pushed"] as? Int == 2)
            #expect(synced["pending"] as? Int == 0)
            let after = try await laptop.json(["status"])
            #expect(after["pending"] as? Int == 0)
            #expect(after["lastSyncAt"] is String)

            _ = try await phone.json(["account", "login", email, "--password-stdin"], stdin: password + "\n")
            let received = try await phone.kith(["sync"])
            #expect(received.status == 0, "\(received)")
            #expect(received.stdout.contains("received 2"), "\(received)")
            let phoneStore = try phone.stores.store(forUser: userID)
            #expect(try phoneStore.records("outreach.contact").map { $0.string("firstName") } == ["Ada"])

            // The same profile pointed at a server that is not there.
            let down = Profile(name: "laptop", home: home, server: URL(string: "http://127.0.0.1:\(try closedLoopbackPort())")!)
            let offline = try await down.json(["status"])
            #expect(offline["online"] as? Bool == false)
            let failed = try await down.kith(["sync"])
            #expect(failed.status == 1)
            #expect(failed.stderr.contains("Cannot connect"), "\(failed)")
        }
    }

    @Test("sync needs a signed-in profile; status says who is not signed in")
    func signedOut() async throws {
        try await LiveServer.run { server in
            let home = try makeTemporaryDirectory("kith-e2e-sync-cli")
            defer { try? FileManager.default.removeItem(at: home) }
            let nobody = Profile(name: "nobody", home: home, server: server.url)
            let run = try await nobody.kith(["sync"])
            #expect(run.status == 1)
            #expect(run.stderr.contains("not signed in"), "\(run)")
            let status = try await nobody.json(["status"])
            #expect(status["signedIn"] as? Bool == false)
            #expect(status["pending"] as? Int == 0)
        }
    }

    @Test("sign-up uploads what the profile made before it; deleting the account removes the profile's copy")
    func adoptionAndDeletion() async throws {
        try await LiveServer.run { server in
            let home = try makeTemporaryDirectory("kith-e2e-sync-cli")
            defer { try? FileManager.default.removeItem(at: home) }
            let tablet = Profile(name: "tablet", home: home, server: server.url)
            let anonymous = try tablet.stores.anonymousStore()
            let year = try anonymous.save("outreach.year", fields: OutreachSample.year("2025"))
            try anonymous.save("outreach.contact", fields: OutreachSample.contact(year: year, first: "Grace", last: "Hopper"))

            let email = uniqueEmail("adopt-cli")
            let signup = try await tablet.kith(["account", "signup", email, "--password-stdin"], stdin: "adopt cli password\n")
            #expect(signup.status == 0, "\(signup)")
            #expect(signup.stderr.contains("Moving 2 records made before signing in into the account"), "\(signup)")
            #expect(signup.stderr.contains("All 2 records are now in your account."), "\(signup)")

            let other = try await SyncDevice.make(server: server.url, email: email, password: "adopt cli password")
            try await other.engine.sync()
            #expect(try other.store.records("outreach.contact").map { $0.string("firstName") } == ["Grace"])

            let userFile = tablet.stores.url.appendingPathComponent("user-\(other.userID.uuidString.lowercased()).sqlite")
            #expect(FileManager.default.fileExists(atPath: userFile.path))
            let deleted = try await tablet.kith(["account", "delete", "--yes", "--password-stdin"], stdin: "adopt cli password\n")
            #expect(deleted.status == 0, "\(deleted)")
            #expect(!FileManager.default.fileExists(atPath: userFile.path), "the account's local data is wiped")
        }
    }
}
