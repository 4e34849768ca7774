import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

@Suite("Web pages: cookies and CSRF")
struct WebSessionTests {
    /// A browser's cookie jar, enough for these tests.
    struct Browser {
        var cookies: [String: String] = [:]

        mutating func absorb(_ response: TestResponse) {
            for header in response.headers[values: .setCookie] {
                let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
                let name = String(pair[0])
                let value = pair.count > 1 ? String(pair[1]) : ""
                if value.isEmpty || header.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
            }
        }

        var cookieHeader: HTTPFields {
            cookies.isEmpty ? [:] : [.cookie: cookies.map { "\($0)=\($1)" }.joined(separator: "; ")]
        }

        mutating func get(_ client: any TestClientProtocol, _ path: String) async throws -> TestResponse {
            let response = try await client.execute(uri: path, method: .get, headers: cookieHeader, body: nil)
            absorb(response)
            return response
        }

        mutating func post(_ client: any TestClientProtocol, _ path: String, form: [String: String], csrf: Bool = true)
            async throws -> TestResponse
        {
            try await post(client, path, pairs: form.map { ($0.key, $0.value) }, csrf: csrf)
        }

        /// A form whose names may come many times (ticked boxes), in the order given.
        mutating func post(
            _ client: any TestClientProtocol, _ path: String, pairs: [(String, String)], csrf: Bool = true
        ) async throws -> TestResponse {
            var fields = pairs
            if csrf { fields.append(("_csrf", cookies[WebSessionMiddleware.csrfCookie] ?? "")) }
            let body = fields.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
                .joined(separator: "&")
            var headers = cookieHeader
            headers[.contentType] = "application/x-www-form-urlencoded"
            let response = try await client.execute(
                uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
            absorb(response)
            return response
        }
    }

    @Test(arguments: Engine.available)
    func signUpSetsAnHttpOnlySameSiteSessionCookie(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var browser = Browser()
            let page = try await browser.get(client, "/signup")
            #expect(page.status == .ok)
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            let csrfCookie = try #require(page.headers[values: .setCookie].first { $0.hasPrefix("kith_csrf=") })
            #expect(csrfCookie.contains("HttpOnly") && csrfCookie.contains("SameSite=Lax"))
            #expect(page.text.contains(browser.cookies["kith_csrf"] ?? "missing"), "the form carries the CSRF token")

            let signedUp = try await browser.post(
                client, "/signup", form: ["email": "ada@example.com", "password": "correct horse"])
            #expect(signedUp.status == .found)
            #expect(signedUp.headers[.location] == "/", "to the home page")
            let sessionCookie = try #require(
                signedUp.headers[values: .setCookie].first { $0.hasPrefix("kith_session=") })
            #expect(sessionCookie.contains("HttpOnly") && sessionCookie.contains("SameSite=Lax"))

            let account = try await browser.get(client, "/account")
            #expect(account.status == .ok)
            #expect(account.text.contains("ada@example.com"))

            // The web session cookie is not an API token.
            let api = try await client.call(.get, "/v1/me", token: browser.cookies["kith_session"])
            #expect(api.status == .unauthorized)

            let signedOut = try await browser.post(client, "/signout", form: [:])
            #expect(signedOut.status == .found)
            #expect(browser.cookies["kith_session"] == nil)
            #expect(try await browser.get(client, "/account").status == .found)
        }
    }

    @Test(arguments: Engine.available)
    func formsWithoutTheCSRFTokenAreRefusedAndChangeNothing(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var browser = Browser()
            _ = try await browser.get(client, "/signup")
            let forged = try await browser.post(
                client, "/signup", form: ["email": "ada@example.com", "password": "correct horse"], csrf: false)
            #expect(forged.status == .forbidden)
            #expect(forged.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(forged.text.contains("This form expired or came from another site."))
            let wrong = try await browser.post(
                client, "/signup",
                form: ["email": "ada@example.com", "password": "correct horse", "_csrf": "kws_forged"],
                csrf: false)
            #expect(wrong.status == .forbidden)
            #expect(try await client.logIn("ada@example.com", "correct horse").status == .unauthorized)
        }
    }

    @Test(arguments: Engine.available)
    func fieldErrorsAreShownNextToTheField(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var browser = Browser()
            _ = try await browser.get(client, "/signup")
            let refused = try await browser.post(
                client, "/signup", form: ["email": "not-an-email", "password": "correct horse"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("id=\"email-error\""))
            #expect(refused.text.contains("Enter a valid email address"))
            #expect(refused.text.contains("value=\"not-an-email\""))

            _ = try await client.signUp("ada@example.com")
            _ = try await browser.get(client, "/signin")
            let wrong = try await browser.post(
                client, "/signin", form: ["email": "ada@example.com", "password": "wrong password"])
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.text.contains("The email or password is incorrect."))
        }
    }

    @Test(arguments: Engine.available)
    func aResetLinkThatWasUsedSaysSo(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            _ = try await client.signUp("ada@example.com")
            var browser = Browser()
            _ = try await browser.get(client, "/forgot-password")
            let sent = try await browser.post(client, "/forgot-password", form: ["email": "ada@example.com"])
            #expect(sent.status == .ok)
            #expect(sent.text.contains("If an account exists"))
            let mail = try await Outbox(dataDirectory: server.config.dataDirectory).waitForMails(1)[0]
            let token = try #require(Outbox.resetToken(in: mail))

            let form = try await browser.get(client, "/reset-password?token=\(token)")
            #expect(form.status == .ok)
            #expect(form.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin")
            let done = try await browser.post(
                client, "/reset-password", form: ["token": token, "newPassword": "brand new pass"])
            #expect(done.status == .found)
            #expect(done.headers[.location]?.hasPrefix("/signin") == true)
            #expect(try await client.logIn("ada@example.com", "brand new pass").status == .ok)

            let reused = try await browser.get(client, "/reset-password?token=\(token)")
            #expect(reused.status == .badRequest)
            #expect(reused.text.contains("already used"))
        }
    }
}
