import Foundation
import KithCore
import KithKit
import KithServer
import KithTestSupport
import Testing

/// `kith contacts import --from URL`: an account on one Kith server copied into an account on
/// another, both on loopback, through their Monica-compatible `/api`.
@Suite("kith contacts import --from", .serialized)
struct ContactsImportCommandTests {
    /// Two servers, a filled account on the first and an empty one on the second; `body` gets
    /// the device signed in to the second, and each account's `/api`.
    static func withAccounts(
        target configure: @escaping @Sendable (inout ServerConfig) -> Void = { _ in },
        _ body: @Sendable (_ device: inout Device, _ source: MonicaAPI, _ target: MonicaAPI) async throws -> Void
    ) async throws {
        try await TestServer.run { sourceServer in
            try await TestServer.run(configure: configure) { targetServer in
                try await withHome { home in
                    let old = Device("old", home: home, server: sourceServer.url)
                    _ = try await old.signUp()
                    let source = MonicaAPI(server: sourceServer.url, token: try await token(old))
                    try await FilledMonicaAccount.fill(source)
                    var device = Device("new", home: home, server: targetServer.url)
                    _ = try await device.signUp()
                    let target = MonicaAPI(server: targetServer.url, token: try await token(device))
                    try await body(&device, source, target)
                }
            }
        }
    }

    static func token(_ device: Device) async throws -> String {
        try #require(try await device.object(["account", "tokens", "create", "import"])["token"] as? String)
    }

    @Test("copies every kind of object, links kept, files whole; a second run copies nothing")
    func copiesAFilledAccountOnce() async throws {
        try await Self.withAccounts { device, source, target in
            let first = try await device.object(
                ["contacts", "import", "--from", source.server.absoluteString, "--token", source.token])
            #expect((first["refused"] as? [Any])?.isEmpty == true, "\(first)")
            let copied = try #require(first["copied"] as? [String: Int])
            for (kind, count) in [
                ("contacts", 4), ("contactFields", 3), ("addresses", 1), ("relationships", 2), ("notes", 1),
                ("tasks", 2), ("calls", 1), ("debts", 1), ("pets", 1), ("conversations", 1), ("messages", 2),
                ("activities", 1), ("lifeEvents", 1), ("occupations", 1), ("journalEntries", 1), ("dayRatings", 1),
                ("documents", 1), ("photos", 1), ("avatars", 2), ("companies", 1), ("places", 1), ("me", 1),
                ("introductions", 1), ("genders", 1), ("contactFieldTypes", 1), ("activityTypes", 1),
            ] {
                #expect(copied[kind] == count, "\(kind): \(copied)")
            }
            // Ada's birthday reminder, her life event's, and Charles's.
            #expect(copied["reminders"] == 3, "\(copied)")

            let after = try await FilledMonicaAccount.expectSame(source, target)
            for path in ["documents", "photos"] {
                let original = try #require(try await source.list(path).first?["link"] as? String)
                let copy = try #require(try await target.list(path).first?["link"] as? String)
                #expect(try await target.download(copy) == (try await source.download(original)), "\(path)")
            }

            let again = await device.kith([
                "contacts", "import", "--from", source.server.absoluteString, "--token", source.token,
            ])
            #expect(again.exitCode == 0, "\(again)")
            #expect(again.stdout.hasPrefix("Nothing new to copy from \(source.server.absoluteString)/api"), "\(again)")
            #expect(again.stdout.contains("copied by an earlier run."), "\(again)")
            #expect(try await FilledMonicaAccount.snapshot(target) == after)
        }
    }

    @Test("a target that asks to slow down is waited out, with the progress bar redrawn on a terminal")
    func rateLimitsAreWaitedOut() async throws {
        let clock = ShiftedClock(by: 0)
        try await Self.withAccounts(target: {
            $0.clock = clock.clock
            $0.monica.rateLimitPerMinute = 20
        }) { device, source, _ in
            let waited = Locked(0.0)
            device.sleep = { seconds in
                clock.shift(
                    to: waited.withLock {
                        $0 += Double(seconds.components.seconds) + 1; return $0
                    })
            }
            device.errorIsTerminal = true
            let run = await device.kith(
                ["--json", "contacts", "import", "--from", source.server.absoluteString, "--token", source.token])
            #expect(run.exitCode == 0, "\(run)")
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            #expect((summary["refused"] as? [Any])?.isEmpty == true, "\(summary)")
            #expect((summary["copied"] as? [String: Int])?["contacts"] == 4, "\(summary)")
            #expect(waited.value > 0, "the target's limit was never reached")
            // --json keeps stderr for errors: no bar, no waits.
            #expect(run.stderr.isEmpty, "\(run)")

            let again = await device.kith([
                "contacts", "import", "--from", source.server.absoluteString, "--token", source.token,
            ])
            #expect(again.exitCode == 0, "\(again)")
            #expect(again.stderr.contains("\r\u{1B}[Kcontacts 3/3 [########################]"), "\(again)")
            #expect(again.stderr.contains("\r\u{1B}[Kcontacts: 4\n"), "\(again)")
        }
    }

    @Test("what the target refuses is listed with its reason, with what needed it; the rest is copied")
    func refusalsAreReported() async throws {
        // Room for the document, not for the photo after it.
        try await Self.withAccounts(target: { $0.monica.storagePerAccount = 100 }) { device, source, target in
            let run = await device.kith([
                "contacts", "import", "--from", source.server.absoluteString, "--token", source.token,
            ])
            #expect(run.exitCode == 0, "\(run)")
            #expect(run.stdout.contains("3 objects were not copied:"), "\(run)")
            #expect(run.stdout.contains("photo #"), "\(run)")
            #expect(run.stdout.contains("ada.png: This account's documents and photos already take"), "\(run)")
            #expect(run.stdout.contains("avatar #"), "\(run)")
            #expect(run.stdout.contains("Ada Lovelace: its photo was not copied"), "\(run)")
            #expect(run.stdout.contains("gift #"), "\(run)")
            let (documents, photos, gifts) = try await (
                target.list("documents"), target.list("photos"), target.list("gifts")
            )
            #expect(documents.count == 1)
            #expect(photos.isEmpty)
            #expect(gifts.count == 1)
            // Progress on stderr, a line per kind.
            #expect(run.stderr.contains("contacts: 4\n"), "\(run)")
        }
    }

    @Test("a refused token or this very account stops before copying anything")
    func wrongSourcesAreRefused() async throws {
        try await Self.withAccounts { device, source, target in
            let wrong = await device.kith([
                "contacts", "import", "--from", source.server.absoluteString, "--token", "nope",
            ])
            #expect(wrong.exitCode == 1)
            #expect(wrong.stderr.contains("refused this API token"), "\(wrong)")
            let itself = await device.kith(
                ["contacts", "import", "--from", target.server.absoluteString, "--token", target.token])
            #expect(itself.exitCode == 1)
            #expect(itself.stderr.contains("That is this account"), "\(itself)")
            let contacts = try await target.list("contacts")
            #expect(contacts.isEmpty)
            let both = await device.kith(["contacts", "import", "a.vcf", "--from", source.server.absoluteString])
            #expect(both.exitCode != 0)
            #expect(both.stderr.contains("not both"), "\(both)")
        }
    }

    @Test("an import whose answers are lost again and again goes on where it stopped and makes nothing twice")
    func interruptedImportsResume() async throws {
        try await Self.withAccounts { device, source, target in
            let map = device.directory.appendingPathComponent("test-import.ids")
            let sourceClient = MonicaClient(server: try MonicaServerAddress(source.server), token: source.token)
            let sourceUser = try await sourceClient.me().id
            var runs = 0
            while true {
                runs += 1
                try #require(runs < 60, "the import never finished")
                // Every seventh write is made on the server, but its answer never arrives.
                let losing = LosingTransport(every: 7)
                let targetClient = MonicaClient(
                    server: try MonicaServerAddress(target.server), token: target.token, transport: losing)
                let ids = try ImportIDMap(fileURL: map)
                do {
                    let summary = try await MonicaImport(
                        from: sourceClient, sourceUserID: sourceUser, into: targetClient, ids: ids
                    ).run()
                    #expect(summary.refused.isEmpty, "\(summary.refused)")
                    break
                } catch MonicaClientError.offline {
                    #expect(losing.lost == 1)
                }
            }
            #expect(runs > 5, "the answers lost should have stopped the import several times")
            _ = try await FilledMonicaAccount.expectSame(source, target)
        }
    }
}

/// A transport that sends every request, but loses the answer of every `every`-th write: the
/// server made the change, the client hears "offline", as when a network drops mid-request.
final class LosingTransport: HTTPTransport, @unchecked Sendable {
    private let inner = URLSessionTransport(timeout: 30)
    private let every: Int
    private let lock = NSLock()
    private var writes = 0
    private(set) var lost = 0

    init(every: Int) { self.every = every }

    func send(_ request: HTTPExchangeRequest) async throws -> HTTPExchangeResponse {
        let response = try await inner.send(request)
        guard request.method != "GET" else { return response }
        let lose = lock.withLock {
            writes += 1
            if writes % every == 0 { lost += 1 }
            return writes % every == 0
        }
        if lose { throw KithError.offline }
        return response
    }
}
