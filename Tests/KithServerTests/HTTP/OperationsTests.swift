import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

@Suite("Health, metrics, API description")
struct OperationsTests {
    @Test(arguments: Engine.available)
    func healthSaysWhichDatabaseAnswers(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let response = try await client.call(.get, "/healthz")
            #expect(response.status == .ok)
            let health = try #require(JSONTree.parse(bytes: Array(response.text.utf8)))
            #expect(health == ["status": "ok", "database": .string(engine.rawValue), "writable": true])
            #expect(response.headers[HTTPField.Name("X-Request-ID")!] != nil)
        }
    }

    /// A full disk: writes answer 503 with a sentence and change nothing, `/healthz` says the server
    /// can't write, and both recover once there is room. (SQLite's page limit stands in for the disk.)
    @Test func aFullDiskIsAnsweredWithASentenceAndShownByHealth() async throws {
        try await SyncAPITests.withSyncServer(.sqlite) { server, client in
            var phone = SyncAPITests.device(try await client.signUp("ada@example.com"), node: "phone", server: server)
            let notes = (0..<300).map { index in
                phone.mutation(UUID(), .upsert, ["title": .string("note \(index) " + String(repeating: "x", count: 40))])
            }
            try await server.app.database.run { sql in
                let pages = try await sql.raw("PRAGMA page_count").first(decodingColumn: "page_count", as: Int.self) ?? 0
                try await sql.raw("PRAGMA max_page_count = \(unsafeRaw: String(pages))").run()
            }
            let refused = try await client.call(
                .post, "/v1/sync/push", body: PushRequest(clientId: UUID(), mutations: notes), token: phone.token)
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.error?.code == "storage_full")
            #expect(refused.error?.message.contains("run out of disk space") == true)
            let health = try await client.call(.get, "/healthz")
            #expect(health.status == .serviceUnavailable)
            #expect(JSONTree.parse(bytes: Array(health.text.utf8))?["writable"] == false)
            // Monica's /api says the same in its own error shape.
            let monica = MonicaError.from(StorageFullError(underlying: "SQLITE_FULL"))
            #expect(monica?.status == .serviceUnavailable)
            #expect(try await SyncAPITests.pull(client, phone).changes.isEmpty, "nothing was written")

            try await server.app.database.run { sql in try await sql.raw("PRAGMA max_page_count = 1073741823").run() }
            #expect(try await SyncAPITests.push(client, phone, notes).results.allSatisfy { $0.status == .applied })
            #expect(try await client.call(.get, "/healthz").status == .ok)
        }
    }

    static let metricsToken = "metrics-token-0123456789"

    @Test func metricsAreInPrometheusTextFormatForTheMetricsTokenOnly() async throws {
        try await TestServer.withRouter(.sqlite, configure: { $0.metricsToken = Self.metricsToken }) { _, client in
            _ = try await client.call(.get, "/v1/me")
            #expect(try await client.call(.get, "/metrics").status == .unauthorized)
            #expect(try await client.call(.get, "/metrics", token: "metrics-token-012345678X").status == .unauthorized)
            let session = try await client.signUp("ada@example.com")
            #expect(
                try await client.call(.get, "/metrics", token: session.accessToken).status == .unauthorized,
                "an account's token is not the metrics token")
            let response = try await client.call(.get, "/metrics", token: Self.metricsToken)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(response.text.contains("# TYPE http_server_request_duration histogram"))
            #expect(response.text.contains(#"http_route="/v1/me""#))
        }
    }

    @Test func withoutAMetricsTokenMetricsAreOff() async throws {
        try await TestServer.withRouter(.sqlite) { _, client in
            let response = try await client.call(.get, "/metrics")
            #expect(response.status == .notFound)
            #expect(response.error?.message.contains("KITH_METRICS_TOKEN") == true)
        }
    }

    /// With an https public URL every answer asks browsers to stay on https; with http none does.
    @Test func strictTransportSecurityFollowsThePublicURL() async throws {
        try await TestServer.withRouter(.sqlite) { _, client in
            for path in ["/healthz", "/signin", "/nowhere", "/api/me", "/v1/me"] {
                let response = try await client.call(.get, path)
                #expect(response.headers[HTTPField.Name("Strict-Transport-Security")!] == "max-age=31536000", "\(path)")
            }
        }
        try await TestServer.withRouter(.sqlite, configure: { $0.publicURL = "http://kith.example" }) { _, client in
            let response = try await client.call(.get, "/healthz")
            #expect(response.headers[HTTPField.Name("Strict-Transport-Security")!] == nil)
        }
    }

    /// Every `/v1` route the router serves is described in openapi.yaml with its method, and the
    /// document describes no route that does not exist.
    @Test func openAPIDescribesEveryV1Route() async throws {
        try await TestServer.withRouter(.sqlite) { server, client in
            let response = try await client.call(.get, "/openapi.yaml")
            #expect(response.status == .ok)
            #expect(response.text.hasPrefix("openapi: 3.1"))
            let documented = Set(OpenAPIPaths.operations(in: response.text))
            let served = Set(
                server.app.routes.compactMap { route -> String? in
                    let parts = route.split(separator: " ", maxSplits: 1)
                    guard parts.count == 2, parts[1].hasPrefix("/v1") else { return nil }
                    return "\(parts[0].uppercased()) \(parts[1])"
                })
            #expect(!served.isEmpty)
            #expect(served.subtracting(documented).isEmpty, "routes missing from openapi.yaml: \(served.subtracting(documented).sorted())")
            #expect(documented.subtracting(served).isEmpty, "documented but not served: \(documented.subtracting(served).sorted())")
        }
    }
}

/// Reads "METHOD /path" pairs out of the `paths:` section of an OpenAPI YAML document (two-space
/// indented path keys, four-space indented method keys), enough for the route check.
enum OpenAPIPaths {
    static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]

    static func operations(in yaml: String) -> [String] {
        var inPaths = false
        var currentPath: String?
        var operations: [String] = []
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty {
                inPaths = line.hasPrefix("paths:")
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                currentPath = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), let path = currentPath {
                let key = line.trimmingCharacters(in: .whitespaces).split(separator: ":").first.map(String.init) ?? ""
                if methods.contains(key) { operations.append("\(key.uppercased()) \(path)") }
            }
        }
        return operations
    }
}
