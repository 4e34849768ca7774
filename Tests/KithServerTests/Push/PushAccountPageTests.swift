import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

/// The account page's "Devices that get notifications": each device with what it is told, a
/// CSRF-checked form to change that and one to remove it.
@Suite("Web Push on the account page")
struct PushAccountPageTests {
    @Test(arguments: Engine.available)
    func aPersonSeesTheirDevicesChangesWhatOneIsToldAndRemovesIt(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var browser = try await ContactsPagesTests.signedUp(client, "ada@example.com")
            let empty = try await browser.get(client, "/account")
            #expect(empty.text.contains(#"id="devices-empty""#))

            // The page's script subscribes this browser with the session cookie and the CSRF header.
            var headers = browser.cookieHeader
            headers[.contentType] = "application/json"
            headers[PageSessionCredential.csrfHeader] = browser.cookies[WebSessionMiddleware.csrfCookie]
            headers[.userAgent] = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
            let body = try WireCoding.encoder().encode(PushRoutesTests.subscription(kinds: ["due", "missed"]))
            let subscribed = try await client.execute(
                uri: "/v1/push/subscriptions", method: .post, headers: headers, body: ByteBuffer(bytes: body))
            #expect(subscribed.status == .created, "\(subscribed.text)")
            let device = try subscribed.decode(WebPushDeviceDTO.self)

            let page = try await browser.get(client, "/account")
            #expect(page.text.contains(#"id="device-\#(device.id)""#))
            #expect(page.text.contains("Firefox on Linux"))
            #expect(page.text.contains("Last notified never"))
            #expect(page.text.contains(#"name="kind.due" type="checkbox" value="on" checked"#))
            #expect(page.text.contains(#"name="kind.missed" type="checkbox" value="on" checked"#))
            #expect(page.text.contains(#"name="kind.before_3" type="checkbox" value="on">"#), "unticked")
            #expect(page.text.contains(#"action="/account/devices/\#(device.id)""#))

            let forged = try await browser.post(
                client, "/account/devices/\(device.id)", form: ["kind.before_1": "on"], csrf: false)
            #expect(forged.status == .forbidden)
            let saved = try await browser.post(
                client, "/account/devices/\(device.id)", form: ["kind.before_1": "on", "kind.contacts_reminder": "on"])
            #expect(saved.status == .ok)
            #expect(saved.text.contains("Saved what Firefox on Linux is told."))
            let stored = try await PushRoutesTests.devices(client, try await Self.token(client))
            #expect(stored.map(\.kinds) == [[.before1, .contactsReminder]])
            let none = try await browser.post(client, "/account/devices/\(device.id)", form: [:])
            #expect(none.text.contains("Firefox on Linux gets no notifications now."))

            let bob = try await client.signUp("bob@example.com").accessToken
            let bobs = try await PushRoutesTests.subscribe(client, bob, PushRoutesTests.subscription()).decode(
                WebPushDeviceDTO.self)
            let notAdas = try await browser.post(client, "/account/devices/\(bobs.id)/remove", form: [:])
            #expect(notAdas.text.contains("That device was not found."))
            #expect(try await PushRoutesTests.devices(client, bob).count == 1)

            let removed = try await browser.post(client, "/account/devices/\(device.id)/remove", form: [:])
            #expect(removed.status == .ok)
            #expect(removed.text.contains("Device removed."))
            #expect(removed.text.contains(#"id="devices-empty""#))
        }
    }

    static func token(_ client: any TestClientProtocol) async throws -> String {
        try await client.logIn("ada@example.com", "correct horse").decode(AuthSessionResponse.self).accessToken
    }
}
