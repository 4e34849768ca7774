import Foundation
import KithTestSupport
import Testing

/// `kith status` and `kith sync`: who, where, what waits, when this profile last synced.
@Suite("kith status and kith sync: text and JSON")
struct SyncCommandTests {
    @Test("signed out and offline, then changes made offline are sent by a sync")
    func statusAndSync() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let nowhere = URL(string: "http://127.0.0.1:\(try closedLoopbackPort())")!
                var laptop = Device(home: home, server: nowhere)
                let fresh = await laptop.kith(["status"])
                #expect(
                    fresh.stdout == """
                        Not signed in
                        Server \(nowhere.absoluteString) (offline)
                        0 changes waiting to be sent after sign-up
                        Never synced

                        """, "\(fresh)")
                let freshJSON = try await laptop.object(["status"])
                #expect(freshJSON["signedIn"] as? Bool == false && freshJSON["online"] as? Bool == false)
                #expect(freshJSON["pending"] as? Int == 0 && freshJSON["lastSyncAt"] == nil && freshJSON["user"] == nil)
                let signedOut = await laptop.kith(["sync"])
                #expect(signedOut.exitCode == 1, "\(signedOut)")
                #expect(signedOut.stderr == "error: You are not signed in. Run `kith account login` first.\n")

                laptop.server = server.url
                let email = try await laptop.signUp()
                laptop.server = nowhere
                let added = await laptop.kith([
                    "outreach", "add", "--first", "Ada", "--last", "Lovelace", "--enterprise", "AE",
                ])
                #expect(added.exitCode == 0, "\(added)")
                #expect(added.stderr.contains("Offline: changes are kept on this device"), "\(added)")
                let waiting = try await laptop.object(["status"])
                let pending = try #require(waiting["pending"] as? Int)
                #expect(pending >= 1 && waiting["online"] as? Bool == false, "\(waiting)")
                #expect((waiting["user"] as? [String: Any])?["email"] as? String == email)

                laptop.server = server.url
                let synced = try await laptop.object(["sync"])
                #expect(synced["pushed"] as? Int == pending, "\(synced)")
                #expect(synced["pending"] as? Int == 0 && (synced["rejected"] as? [Any])?.isEmpty == true)
                #expect(synced["lastSyncAt"] is String)
                let again = await laptop.kith(["sync"])
                #expect(again.stdout == "Sent 0 changes, received 0. Synced.\n", "\(again)")
                let status = await laptop.kith(["status"])
                let lines = status.stdout.split(separator: "\n").map(String.init)
                #expect(lines.count == 4, "\(status)")
                #expect(lines.first == "Signed in as \(email)")
                #expect(lines.dropFirst().first == "Server \(server.url.absoluteString) (online)")
                #expect(lines.dropFirst(2).first == "0 changes waiting to be sent")
                #expect(lines.last?.hasPrefix("Last synced 20") == true, "\(status)")
            }
        }
    }
}
