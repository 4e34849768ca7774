import Foundation
import KithCore
import KithKit
import KithTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `kith backup` while the server runs, `kith restore` while it is stopped: what comes back is
/// what was there.
@Suite("kith backup and kith restore")
struct BackupCommandTests {
    /// What a user can see of their data, with the server's address taken out (it may change).
    static func snapshot(_ url: URL, token: String) async throws -> String {
        var seen: [String] = []
        for path in ["/api/contacts?limit=100&with=contactfields", "/api/notes?limit=100", "/v1/tokens"] {
            var request = URLRequest(url: URL(string: url.absoluteString + path)!)
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            let (data, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(path)")
            seen.append(String(decoding: data, as: UTF8.self).replacingOccurrences(of: url.absoluteString, with: "<server>"))
        }
        return seen.joined(separator: "\n")
    }

    static func post(_ url: URL, _ path: String, token: String, _ body: String) async throws {
        var request = URLRequest(url: URL(string: url.absoluteString + path)!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        #expect((200..<300).contains(status), "\(path): \(String(decoding: data, as: UTF8.self))")
    }

    @Test func aBackupTakenWhileServingComesBackWhole() async throws {
        let data = try makeTemporaryDirectory("kith-e2e-backup")
        defer { try? FileManager.default.removeItem(at: data) }
        let backup = data.appendingPathComponent("backup.sqlite").path
        let serveArguments = ["serve", "--data", data.path, "--port", "0"]
        let environment = ["KITH_BCRYPT_COST": "4", "KITH_API_RATE_LIMIT": "100000"]
        let email = uniqueEmail("backup")

        // Fill: an account, a token, contacts with notes, while the server runs.
        let first = try ServeProcess(arguments: serveArguments, environment: environment)
        defer { first.stop() }
        let (url, _) = try await first.waitUntilServing()
        let client = KithClient(serverURL: url, store: InMemorySessionStore())
        try await client.signUp(email: email, password: "long enough password")
        let token = try #require(try await client.createPersonalToken(name: "backup test").token)
        for name in ["Ada", "Grace", "Édouard"] {
            try await Self.post(
                url, "/api/contacts", token: token,
                #"{"first_name":"\#(name)","is_birthdate_known":false,"is_deceased":false,"is_deceased_date_known":false,"email":"\#(name.lowercased())@example.com"}"#
            )
            try await Self.post(url, "/api/notes", token: token, #"{"contact_id":1,"body":"about \#(name)"}"#)
        }
        let before = try await Self.snapshot(url, token: token)

        let made = try await runKith(["backup", backup, "--data", data.path, "--json"], environment: [:])
        #expect(made.status == 0, "\(made)")
        #expect(try made.json()["users"] as? Int == 1)
        let again = try await runKith(["backup", backup, "--data", data.path], environment: [:])
        #expect(again.status == 1 && again.stderr.contains("already exists"), "a backup never overwrites: \(again)")

        let refused = try await runKith(["restore", backup, "--data", data.path], environment: [:])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("another Kith server is using"), "\(refused)")
        let second = try ServeProcess(arguments: serveArguments, environment: environment)
        defer { second.stop() }
        #expect(try await second.waitForExit(timeout: .seconds(30)) != 0, "a second server on the same data is refused")
        #expect(second.stderr.contains("another Kith server is using"), "\(second.stderr)")

        // Destroy: the server stops, its database goes, a fresh one starts empty.
        first.signal(SIGTERM)
        #expect(try await first.waitForExit(timeout: .seconds(20)) == 0)
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(at: data.appendingPathComponent("kith.sqlite" + suffix))
        }
        let empty = try ServeProcess(arguments: serveArguments, environment: environment)
        defer { empty.stop() }
        let (emptyURL, _) = try await empty.waitUntilServing()
        let lost = await expectKithError {
            try await KithClient(serverURL: emptyURL, store: InMemorySessionStore()).signIn(
                email: email, password: "long enough password")
        }
        #expect(lost != nil, "the account is gone before the restore")
        empty.signal(SIGTERM)
        #expect(try await empty.waitForExit(timeout: .seconds(20)) == 0)

        // A file that is not a backup changes nothing.
        let junk = data.appendingPathComponent("junk.sqlite")
        try Data("not a database".utf8).write(to: junk)
        let badRestore = try await runKith(["restore", junk.path, "--data", data.path], environment: [:])
        #expect(badRestore.status == 1, "\(badRestore)")

        // Restore, start again: everything is back as it was.
        let restored = try await runKith(["restore", backup, "--data", data.path, "--json"], environment: [:])
        #expect(restored.status == 0, "\(restored)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: data.path).filter { $0.contains(".replaced-") }
        #expect(kept.count == 1, "the database a restore replaces is kept: \(kept)")
        let third = try ServeProcess(arguments: serveArguments, environment: environment)
        defer { third.stop() }
        let (thirdURL, _) = try await third.waitUntilServing()
        let after = try await Self.snapshot(thirdURL, token: token)
        #expect(after == before)
        let back = KithClient(serverURL: thirdURL, store: InMemorySessionStore())
        #expect(try await back.signIn(email: email, password: "long enough password").email == email)
        third.signal(SIGTERM)
        _ = try await third.waitForExit(timeout: .seconds(20))
    }
}
