import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

/// `/api` called by the web app's Contacts pages: the session cookie instead of a token, the CSRF
/// header on writes, and no Monica rate limit (docs/decisions.md 29).
@Suite("Monica API: the web app's session cookie")
struct MonicaWebSessionTests {
    typealias Browser = WebSessionTests.Browser

    /// What the page sends in `X-CSRF-Token`.
    enum CSRFHeader {
        case matching, missing
        case wrong(String)
    }

    /// A browser signed in to the web app, calling `/api` as contacts.js does.
    struct WebApp {
        var browser: Browser
        let client: any TestClientProtocol

        static func signIn(_ client: any TestClientProtocol, _ email: String) async throws -> WebApp {
            var browser = Browser()
            _ = try await browser.get(client, "/signin")
            let signedIn = try await browser.post(
                client, "/signin", form: ["email": email, "password": "correct horse"])
            #expect(signedIn.status == .found, "signing in \(email): \(signedIn.text)")
            #expect(browser.cookies[WebSessionMiddleware.sessionCookie] != nil)
            return WebApp(browser: browser, client: client)
        }

        func call(_ method: HTTPRequest.Method, _ path: String, _ body: JSONTree? = nil, csrf: CSRFHeader = .matching)
            async throws -> MonicaAnswer
        {
            var headers = browser.cookieHeader
            headers[.accept] = "application/json"
            if body != nil { headers[.contentType] = "application/json" }
            switch csrf {
            case .matching: headers[MonicaAuthMiddleware.csrfHeader] = browser.cookies[WebSessionMiddleware.csrfCookie]
            case .missing: break
            case .wrong(let token): headers[MonicaAuthMiddleware.csrfHeader] = token
            }
            let response = try await client.execute(
                uri: path, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0.serialized()) })
            let text = String(buffer: response.body)
            return MonicaAnswer(
                status: response.status, json: JSONTree.parse(Data(text.utf8)) ?? .null, headers: response.headers,
                text: text)
        }

        func get(_ path: String) async throws -> MonicaAnswer { try await call(.get, path) }
    }

    static let contactBody: JSONTree = [
        "first_name": "Ada", "is_birthdate_known": false, "is_deceased": false, "is_deceased_date_known": false,
    ]

    static func expectCSRFRefusal(_ answer: MonicaAnswer, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answer.status == .forbidden, "\(answer.text)", sourceLocation: sourceLocation)
        #expect(answer["error"]?["error_code"] == 42, "\(answer.text)", sourceLocation: sourceLocation)
    }

    static func expectUnauthenticated(_ answer: MonicaAnswer, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answer.status == .unauthorized, "\(answer.text)", sourceLocation: sourceLocation)
        #expect(answer.json == ["message": "Unauthenticated."], "\(answer.text)", sourceLocation: sourceLocation)
    }

    @Test(arguments: Engine.available)
    func theSessionCookieReadsTheSignedInUsersContacts(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let ada = try await me.contact("Ada", "Lovelace")
            let theirs = try await other.contact("Grace", "Hopper")
            let web = try await WebApp.signIn(me.client, "me@example.com")

            let list = try await web.get("/api/contacts?limit=50")
            #expect(list.status == .ok, "\(list.text)")
            #expect(ids(list) == [ada])
            #expect(
                try await web.get("/api/contacts/\(ada)?with=contactfields").data?["complete_name"] == "Ada Lovelace")
            expectNotFound(try await web.get("/api/contacts/\(theirs)"))
            #expect(try await web.get("/api/contacts?query=grace").data?.arrayValue?.isEmpty == true)
        }
    }

    @Test(arguments: Engine.available)
    func aWriteWithTheCookieNeedsTheCSRFTokenInAHeader(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            var web = try await WebApp.signIn(me.client, "me@example.com")
            Self.expectCSRFRefusal(try await web.call(.post, "/api/contacts", Self.contactBody, csrf: .missing))
            Self.expectCSRFRefusal(
                try await web.call(
                    .post, "/api/contacts", Self.contactBody, csrf: .wrong(String(repeating: "x", count: 43))))
            #expect(ids(try await me.get("/api/contacts")).isEmpty, "refused writes create nothing")

            let created = try await web.call(.post, "/api/contacts", Self.contactBody)
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(created.dataID)
            #expect(ids(try await me.get("/api/contacts")) == [id], "the token's owner sees what the page made")

            let renamed: JSONTree = [
                "first_name": "Augusta", "is_birthdate_known": false, "is_deceased": false,
                "is_deceased_date_known": false,
            ]
            Self.expectCSRFRefusal(try await web.call(.put, "/api/contacts/\(id)", renamed, csrf: .missing))
            Self.expectCSRFRefusal(try await web.call(.delete, "/api/contacts/\(id)", csrf: .missing))
            #expect(try await me.get("/api/contacts/\(id)").data?["first_name"] == "Ada", "unchanged")

            // The header alone is not enough: it must match the browser's CSRF cookie.
            let token = try #require(web.browser.cookies[WebSessionMiddleware.csrfCookie])
            web.browser.cookies[WebSessionMiddleware.csrfCookie] = nil
            Self.expectCSRFRefusal(try await web.call(.delete, "/api/contacts/\(id)", csrf: .wrong(token)))
            web.browser.cookies[WebSessionMiddleware.csrfCookie] = token

            #expect(try await web.call(.put, "/api/contacts/\(id)", renamed).data?["first_name"] == "Augusta")
            let deleted = try await web.call(.delete, "/api/contacts/\(id)")
            #expect(deleted.json == ["deleted": true, "id": .string(String(id))], "\(deleted.text)")
            expectNotFound(try await me.get("/api/contacts/\(id)"))
        }
    }

    @Test(arguments: Engine.available)
    func pagesAreNotRateLimitedWhileTokensStillAre(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, configure: { $0.monica.rateLimitPerMinute = 5 }) { me, _, _ in
            let web = try await WebApp.signIn(me.client, "me@example.com")
            for _ in 1...12 {
                let answer = try await web.get("/api/contacts")
                #expect(answer.status == .ok, "\(answer.text)")
                #expect(answer.headers[HTTPField.Name("X-RateLimit-Remaining")!] == nil, "not counted")
            }
            for index in 1...5 {
                let answer = try await me.get("/api/contacts")
                #expect(answer.headers[HTTPField.Name("X-RateLimit-Remaining")!] == String(5 - index))
            }
            #expect(try await me.get("/api/contacts").status == .tooManyRequests, "the token has its own minute")
            #expect(try await web.get("/api/contacts").status == .ok, "and the pages keep working")
        }
    }

    @Test(arguments: Engine.available)
    func anUnknownExpiredOrForeignCookieIsUnauthenticated(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, server in
            var web = try await WebApp.signIn(me.client, "me@example.com")
            let session = try #require(web.browser.cookies[WebSessionMiddleware.sessionCookie])

            #expect(try await web.get("/api/contacts").status == .ok)

            // A bearer token is checked as before, whatever cookie comes with it.
            var withBadToken = web.browser.cookieHeader
            withBadToken[.authorization] = "Bearer kpt_forged"
            let refused = try await me.client.execute(
                uri: "/api/contacts", method: .get, headers: withBadToken, body: nil)
            #expect(refused.status == .unauthorized, "a wrong token is not rescued by the cookie")

            // Tokens that are not a web session never sign a cookie in (nor escape the rate limit).
            for token in [me.token, try await me.client.signUp("third@example.com").accessToken, "kws_unknown"] {
                web.browser.cookies[WebSessionMiddleware.sessionCookie] = token
                Self.expectUnauthenticated(try await web.get("/api/contacts"))
                Self.expectUnauthenticated(try await web.call(.post, "/api/contacts", Self.contactBody))
            }
            #expect(ids(try await me.get("/api/contacts")).isEmpty)

            web.browser.cookies[WebSessionMiddleware.sessionCookie] = session
            #expect(try await web.get("/api/contacts").status == .ok, "still signed in")
            server.clock.advance(by: server.config.accounts.webSessionLifetime + 1)
            Self.expectUnauthenticated(try await web.get("/api/contacts"))
        }
    }

    @Test(arguments: Engine.available)
    func signingOutEndsTheAPIAccessOfTheCookie(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            var web = try await WebApp.signIn(me.client, "me@example.com")
            let session = try #require(web.browser.cookies[WebSessionMiddleware.sessionCookie])
            #expect(try await web.get("/api/me").data?["email"] == "me@example.com")
            #expect(try await web.browser.post(web.client, "/signout", form: [:]).status == .found)
            web.browser.cookies[WebSessionMiddleware.sessionCookie] = session
            Self.expectUnauthenticated(try await web.get("/api/me"))
        }
    }
}
