import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

/// `/v1/push` (docs/push.md): the key, and an account's devices through the API, on both engines.
@Suite("Web Push routes")
struct PushRoutesTests {
    /// A browser's subscription to `endpoint`, with keys of its own.
    static func subscription(
        _ endpoint: String = "https://fcm.googleapis.com/fcm/send/\(UUID().uuidString)", kinds: [String]? = nil,
        name: String? = nil
    ) -> WebPushSubscribeRequest {
        let key = P256.KeyAgreement.PrivateKey()
        return WebPushSubscribeRequest(
            endpoint: endpoint,
            keys: .init(
                p256dh: WebPushBase64.encode(key.publicKey.x963Representation),
                auth: WebPushBase64.encode((0..<16).map { _ in UInt8.random(in: 0...255) })),
            expirationTime: nil, kinds: kinds, name: name)
    }

    static func subscribe(
        _ client: any TestClientProtocol, _ token: String, _ request: WebPushSubscribeRequest,
        userAgent: String? = nil
    ) async throws -> TestResponse {
        let data = try WireCoding.encoder().encode(request)
        var headers: HTTPFields = [:]
        if let userAgent { headers[.userAgent] = userAgent }
        return try await client.call(
            .post, "/v1/push/subscriptions", json: String(decoding: data, as: UTF8.self), token: token, headers: headers
        )
    }

    static func devices(_ client: any TestClientProtocol, _ token: String) async throws -> [WebPushDeviceDTO] {
        let response = try await client.call(.get, "/v1/push/subscriptions", token: token)
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(WebPushDeviceList.self).devices
    }

    @Test(arguments: Engine.available)
    func theKeyIsPublicMadeOnceAndTheSameForEveryone(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let first = try await client.call(.get, "/v1/push/key")
            #expect(first.status == .ok, "no sign-in needed")
            let key = try first.decode(WebPushKeyResponse.self).publicKey
            #expect(key.count == 87 && WebPushBase64.decode(key)?.first == 4, "an uncompressed point, no padding")
            #expect(try await client.call(.get, "/v1/push/key").decode(WebPushKeyResponse.self).publicKey == key)
            // Stores of other servers on this database find the same key, however many ask at once.
            let stores = (0..<4).map { _ in VAPIDKeyStore(database: server.app.database, clock: server.config.clock) }
            let keys = try await withThrowingTaskGroup(of: String.self) { group in
                for store in stores { group.addTask { try await store.keyPair().publicKeyText } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(keys == [key])
        }
    }

    @Test(arguments: Engine.available)
    func aDeviceIsAddedUpdatedListedChangedAndRemoved(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let ada = try await client.signUp("ada@example.com").accessToken
            var request = Self.subscription()
            let chrome =
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
            let created = try await Self.subscribe(client, ada, request, userAgent: chrome)
            #expect(created.status == .created, "\(created.text)")
            let device = try created.decode(WebPushDeviceDTO.self)
            #expect(device.name == "Chrome on Android")
            #expect(device.kinds == WebPushKind.allCases, "every kind when none is named")
            #expect(device.createdAt == server.clock.now && device.lastUsedAt == nil && device.replaced == nil)
            #expect(
                !created.text.contains("p256dh") && !created.text.contains("endpoint"), "secrets stay on the server")

            // The same endpoint again (new keys, fewer kinds): the same device, updated; its name stays.
            server.clock.advance(by: 60)
            let again = Self.subscription(request.endpoint!, kinds: ["due", "before_1", "due"])
            let updated = try await Self.subscribe(client, ada, again, userAgent: "curl/8")
            #expect(updated.status == .ok, "\(updated.text)")
            #expect(try updated.decode(WebPushDeviceDTO.self).id == device.id)
            #expect(try updated.decode(WebPushDeviceDTO.self).kinds == [.before1, .due])
            #expect(try updated.decode(WebPushDeviceDTO.self).name == "Chrome on Android")
            let stored = try #require(
                try await PushSubscriptionRepository(database: server.app.database).subscription(device.id))
            #expect(stored.p256dh == again.keys?.p256dh && stored.auth == again.keys?.auth)
            #expect(try await Self.devices(client, ada).map(\.id) == [device.id])

            let renamed = try await client.call(
                .patch, "/v1/push/subscriptions/\(device.id)",
                body: WebPushDeviceUpdate(kinds: ["completion", "contacts_reminder"], name: "  Ada's phone "),
                token: ada)
            #expect(renamed.status == .ok, "\(renamed.text)")
            #expect(try renamed.decode(WebPushDeviceDTO.self).name == "Ada's phone")
            #expect(try renamed.decode(WebPushDeviceDTO.self).kinds == [.completion, .contactsReminder])

            // Another account sees none of it.
            let bob = try await client.signUp("bob@example.com").accessToken
            #expect(try await Self.devices(client, bob).isEmpty)
            #expect(
                try await client.call(
                    .patch, "/v1/push/subscriptions/\(device.id)", body: WebPushDeviceUpdate(name: "x"), token: bob
                )
                .status == .notFound)
            #expect(
                try await client.call(.delete, "/v1/push/subscriptions/\(device.id)", token: bob).status == .notFound)
            #expect(
                try await client.call(
                    .delete, "/v1/push/subscriptions", body: WebPushUnsubscribeRequest(endpoint: request.endpoint),
                    token: bob
                )
                .status == .notFound)

            // Unsubscribing by endpoint (what a page knows) and by id.
            let gone = try await client.call(
                .delete, "/v1/push/subscriptions", body: WebPushUnsubscribeRequest(endpoint: request.endpoint),
                token: ada)
            #expect(gone.status == .noContent)
            #expect(try await Self.devices(client, ada).isEmpty)
            #expect(
                try await client.call(
                    .delete, "/v1/push/subscriptions", body: WebPushUnsubscribeRequest(endpoint: request.endpoint),
                    token: ada
                )
                .status == .notFound)
            request = Self.subscription()
            let second = try await Self.subscribe(client, ada, request).decode(WebPushDeviceDTO.self)
            #expect(
                try await client.call(.delete, "/v1/push/subscriptions/\(second.id)", token: ada).status == .noContent)
            #expect(
                try await client.call(.delete, "/v1/push/subscriptions/\(second.id)", token: ada).status == .notFound)
            #expect(try await client.call(.delete, "/v1/push/subscriptions/not-an-id", token: ada).status == .notFound)
        }
    }

    @Test(arguments: Engine.available)
    func aMalformedSubscriptionIsRefusedNamingItsField(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let ada = try await client.signUp("ada@example.com").accessToken
            let good = Self.subscription()
            var offCurve = try #require(WebPushBase64.decode(good.keys!.p256dh!))
            offCurve[64] ^= 1
            func with(_ change: (inout WebPushSubscribeRequest) -> Void) -> WebPushSubscribeRequest {
                var request = good
                change(&request)
                return request
            }
            let cases: [(WebPushSubscribeRequest, String)] = [
                (with { $0.endpoint = nil }, "endpoint"), (with { $0.endpoint = "not a url" }, "endpoint"),
                (with { $0.endpoint = "http://fcm.googleapis.com/fcm/send/x" }, "endpoint"),
                (with { $0.endpoint = "https://127.0.0.1/push" }, "endpoint"),
                (with { $0.endpoint = "https://192.168.1.20/push" }, "endpoint"),
                (with { $0.endpoint = "https://[::ffff:169.254.169.254]/latest" }, "endpoint"),
                (with { $0.endpoint = "https://localhost:8443/push" }, "endpoint"),
                (with { $0.endpoint = "https://example.com/" + String(repeating: "a", count: 3000) }, "endpoint"),
                (with { $0.keys = nil }, "keys.p256dh"), (with { $0.keys?.p256dh = "short" }, "keys.p256dh"),
                (with { $0.keys?.p256dh = WebPushBase64.encode(offCurve) }, "keys.p256dh"),
                (with { $0.keys?.auth = nil }, "keys.auth"), (with { $0.keys?.auth = "AAAA" }, "keys.auth"),
                (with { $0.kinds = ["due", "birthday"] }, "kinds"), (with { $0.name = "   " }, "name"),
                (with { $0.name = String(repeating: "n", count: 61) }, "name"),
                (with { $0.name = "two\nlines" }, "name"),
                (with { $0.expirationTime = -1 }, "expirationTime"),
            ]
            for (request, field) in cases {
                let response = try await Self.subscribe(client, ada, request)
                #expect(
                    response.status == .unprocessableContent,
                    "\(field): \(response.status) \(response.text.prefix(200))")
                #expect(response.error?.field == field, "\(response.text.prefix(200))")
                #expect(response.error?.code == "validation_failed")
            }
            #expect(try await Self.devices(client, ada).isEmpty, "nothing was stored")
            let mistyped = try await client.call(.post, "/v1/push/subscriptions", json: #"{"endpoint": 5}"#, token: ada)
            #expect(mistyped.status == .badRequest && mistyped.error?.field == "endpoint")
            let device = try await Self.subscribe(client, ada, good).decode(WebPushDeviceDTO.self)
            let patched = try await client.call(
                .patch, "/v1/push/subscriptions/\(device.id)", body: WebPushDeviceUpdate(kinds: ["soon"]), token: ada)
            #expect(patched.status == .unprocessableContent && patched.error?.field == "kinds")
        }
    }

    @Test(arguments: Engine.available)
    func signInIsNeededAndAPagesCookieWritesOnlyWithItsCSRFToken(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let body = String(decoding: try WireCoding.encoder().encode(Self.subscription()), as: UTF8.self)
            #expect(try await client.call(.post, "/v1/push/subscriptions", json: body).status == .unauthorized)
            #expect(try await client.call(.get, "/v1/push/subscriptions").status == .unauthorized)
            #expect(try await client.call(.get, "/v1/push/subscriptions", token: "nope").status == .unauthorized)

            var browser = WebSessionTests.Browser()
            _ = try await browser.get(client, "/signup")
            _ = try await browser.post(
                client, "/signup", form: ["email": "ada@example.com", "password": "correct horse"])
            let csrf = try #require(browser.cookies[WebSessionMiddleware.csrfCookie])
            var headers = browser.cookieHeader
            let listed = try await client.execute(
                uri: "/v1/push/subscriptions", method: .get, headers: headers, body: nil)
            #expect(listed.status == .ok, "a read with the cookie alone")
            headers[.contentType] = "application/json"
            let refused = try await client.execute(
                uri: "/v1/push/subscriptions", method: .post, headers: headers, body: ByteBuffer(string: body))
            #expect(refused.status == .forbidden && refused.error?.code == "csrf_failed", "\(refused.text)")
            headers[PageSessionCredential.csrfHeader] = "not-the-token"
            let wrong = try await client.execute(
                uri: "/v1/push/subscriptions", method: .post, headers: headers, body: ByteBuffer(string: body))
            #expect(wrong.status == .forbidden)
            headers[PageSessionCredential.csrfHeader] = csrf
            let accepted = try await client.execute(
                uri: "/v1/push/subscriptions", method: .post, headers: headers, body: ByteBuffer(string: body))
            #expect(accepted.status == .created, "\(accepted.text)")
        }
    }

    @Test(arguments: Engine.available)
    func aFullAccountGivesUpTheDeviceUnusedLongest(engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: { $0.push.devicesPerAccount = 3 }) { server, client in
            let ada = try await client.signUp("ada@example.com").accessToken
            var ids: [String] = []
            for name in ["laptop", "phone", "tablet"] {
                let response = try await Self.subscribe(client, ada, Self.subscription(name: name))
                ids.append(try response.decode(WebPushDeviceDTO.self).id)
                server.clock.advance(by: 60)
            }
            // The laptop was pushed to last, the phone's browser subscribed again: the tablet is the oldest touch.
            try await PushSubscriptionRepository(database: server.app.database).markUsed(
                ids[0], at: server.clock.now.epochMillis)
            let phone = try #require(
                try await PushSubscriptionRepository(database: server.app.database).subscription(ids[1]))
            server.clock.advance(by: 60)
            _ = try await Self.subscribe(
                client, ada,
                WebPushSubscribeRequest(endpoint: phone.endpoint, keys: .init(p256dh: phone.p256dh, auth: phone.auth)))
            let fourth = try await Self.subscribe(client, ada, Self.subscription(name: "desktop"))
            #expect(fourth.status == .created)
            let added = try fourth.decode(WebPushDeviceDTO.self)
            #expect(added.replaced == WebPushDeviceDTO.ReplacedDevice(id: ids[2], name: "tablet"), "\(fourth.text)")
            #expect(Set(try await Self.devices(client, ada).map(\.name)) == ["laptop", "phone", "desktop"])
        }
    }

    @Test(arguments: Engine.available)
    func anEndpointSubscribedByAnotherAccountMovesToIt(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let ada = try await client.signUp("ada@example.com").accessToken
            let bob = try await client.signUp("bob@example.com").accessToken
            let shared = Self.subscription()
            #expect(try await Self.subscribe(client, ada, shared).status == .created)
            // Bob signs in on the same browser profile and switches notifications on.
            #expect(try await Self.subscribe(client, bob, shared).status == .created)
            #expect(try await Self.devices(client, ada).isEmpty, "Ada's notices no longer go to Bob's browser")
            #expect(try await Self.devices(client, bob).count == 1)
        }
    }

    @Test func theSettingIsReadFromTheEnvironment() throws {
        #expect(try ServerConfig.fromEnvironment([:]).push.allowLoopback == false)
        #expect(try ServerConfig.fromEnvironment(["KITH_PUSH_ALLOW_LOOPBACK": "1"]).push.allowLoopback == true)
        #expect(throws: ConfigError.self) { try ServerConfig.fromEnvironment(["KITH_PUSH_ALLOW_LOOPBACK": "yes"]) }
    }
}
