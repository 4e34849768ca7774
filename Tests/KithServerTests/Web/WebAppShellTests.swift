import Foundation
import HTTPTypes
import HummingbirdTesting
import KithTestSupport
import Testing

@testable import KithServer

@Suite("Web app shell: installable and offline")
struct WebAppShellTests {
    @Test(arguments: Engine.available)
    func theWorkerManifestAndTouchIconAreServedFromTheRoot(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let worker = try await client.execute(uri: "/sw.js", method: .get)
            #expect(worker.status == .ok)
            #expect(worker.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(worker.headers[.cacheControl] == "no-cache", "a browser must see a new worker at once")
            #expect(!worker.text.contains(WebAppShell.versionPlaceholder))
            #expect(worker.text.range(of: #"var VERSION = "[0-9a-f]{16}";"#, options: .regularExpression) != nil)

            let manifest = try await client.execute(uri: "/manifest.webmanifest", method: .get)
            #expect(manifest.headers[.contentType] == "application/manifest+json")
            let fields = try #require(
                try JSONSerialization.jsonObject(with: Data(manifest.text.utf8)) as? [String: Any])
            #expect(fields["display"] as? String == "standalone")
            #expect(fields["start_url"] as? String == "/")
            let icons = try #require(fields["icons"] as? [[String: String]])
            #expect(icons.contains { $0["sizes"] == "512x512" && $0["purpose"] == "maskable" })

            let icon = try await client.execute(uri: "/apple-touch-icon.png", method: .get)
            #expect(icon.headers[.contentType] == "image/png")
            #expect(Array(icon.body.readableBytesView.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        }
    }

    @Test(arguments: Engine.available)
    func pagesNameTheirAccountSoABrowserKeepsEachAccountApart(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var ada = WebSessionTests.Browser()
            _ = try await ada.get(client, "/signup")
            _ = try await ada.post(client, "/signup", form: ["email": "ada@example.com", "password": "correct horse"])
            var grace = WebSessionTests.Browser()
            _ = try await grace.get(client, "/signup")
            _ = try await grace.post(client, "/signup", form: ["email": "grace@example.com", "password": "correct horse"])

            let adaHome = try await ada.get(client, "/")
            let adaFood = try await ada.get(client, "/food")
            let graceHome = try await grace.get(client, "/")
            let mark = try #require(adaHome.headers[OfflineAccount.header])
            #expect(adaFood.headers[OfflineAccount.header] == mark, "one account, one mark on every page")
            #expect(graceHome.headers[OfflineAccount.header] != mark, "another account, another mark")
            #expect(adaHome.text.contains(#"<meta name="kith-account" content="\#(mark)">"#))
            #expect(!mark.contains("ada"), "the mark names the account without saying who it is")

            var stranger = WebSessionTests.Browser()
            let signedOut = try await stranger.get(client, "/signin")
            #expect(signedOut.headers[OfflineAccount.header] == nil)
            #expect(!signedOut.text.contains("kith-account"))
        }
    }

    @Test func theShellVersionChangesWithAnyStaticFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-shell-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("icons"), withIntermediateDirectories: true)
        try Data("var VERSION = \"\(WebAppShell.versionPlaceholder)\";".utf8).write(
            to: directory.appendingPathComponent("sw.js"))
        try Data("{}".utf8).write(to: directory.appendingPathComponent("manifest.webmanifest"))
        try Data([0x89, 0x50]).write(to: directory.appendingPathComponent("icons/apple-touch-icon.png"))
        try Data("body {}".utf8).write(to: directory.appendingPathComponent("app.css"))

        let before = try WebAppShell(staticDirectory: directory.path).version
        #expect(try WebAppShell(staticDirectory: directory.path).version == before, "the same files, the same version")
        try Data("body { color: red }".utf8).write(to: directory.appendingPathComponent("app.css"))
        #expect(try WebAppShell(staticDirectory: directory.path).version != before)

        try Data("no placeholder".utf8).write(to: directory.appendingPathComponent("sw.js"))
        #expect(throws: WebRendererError.self) { try WebAppShell(staticDirectory: directory.path) }
    }
}
