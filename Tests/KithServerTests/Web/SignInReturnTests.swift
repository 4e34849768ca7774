import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

/// A session that ended: the page sends the browser to sign in with the way back, and signing in
/// goes back there, only ever to a path on this server.
@Suite("Signing in returns to the page the person was on")
struct SignInReturnTests {
    typealias Browser = WebSessionTests.Browser

    @Test func onlyPathsOnThisServerAreKept() {
        #expect(SignInReturn.safePath("/outreach?year=1&q=ada") == "/outreach?year=1&q=ada")
        for forged in [
            "//evil.example/", "https://evil.example/", "/\\evil.example", "/signin?next=/", "/signup", "evil", "/a\nb",
        ] {
            #expect(SignInReturn.safePath(forged) == nil, "\(forged)")
        }
        #expect(
            SignInReturn.address(returningTo: "/food?date=2026-12-01", ended: true)
                == "/signin?next=%2Ffood%3Fdate%3D2026-12-01&ended=1")
        #expect(SignInReturn.address(returningTo: "/", ended: false) == "/signin")
    }

    @Test(arguments: Engine.available)
    func anEndedSessionSignsInAndComesBack(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var (browser, year) = try await OutreachPagesTests.signedUp(client, "ada@example.com")
            let page = "/outreach?year=\(year.lowercased)&q=ada"
            // Never signed in: sign in, then back.
            var stranger = Browser()
            let first = try await stranger.get(client, page)
            #expect(first.headers[.location] == "/signin?next=" + FormEncoding.encode(page))
            // A session the server no longer has: the sign-in page says it ended.
            browser.cookies[WebSessionMiddleware.sessionCookie] = "kith_web_" + String(repeating: "0", count: 43)
            let ended = try await browser.get(client, page)
            let signIn = try #require(ended.headers[.location])
            #expect(signIn == "/signin?next=" + FormEncoding.encode(page) + "&ended=1")
            let form = try await browser.get(client, signIn)
            #expect(form.text.contains("Your session ended. Sign in again to go back to the page you were on."))
            #expect(
                form.text.contains(
                    #"<input type="hidden" name="next" value="/outreach?year=\#(year.lowercased)&amp;q=ada">"#))
            let signedIn = try await browser.post(
                client, "/signin", form: ["email": "ada@example.com", "password": "correct horse", "next": page])
            #expect(signedIn.headers[.location] == page)
            let forged = try await browser.post(
                client, "/signin",
                form: ["email": "ada@example.com", "password": "correct horse", "next": "//evil.example"])
            #expect(forged.headers[.location] == "/")

            // A form that arrives after its session ended: not saved, and the way back.
            browser.cookies[WebSessionMiddleware.sessionCookie] = "kith_web_" + String(repeating: "1", count: 43)
            var headers = browser.cookieHeader
            headers[.contentType] = "application/x-www-form-urlencoded"
            headers[.referer] = "http://localhost" + page
            let csrf = browser.cookies[WebSessionMiddleware.csrfCookie] ?? ""
            let late = try await client.execute(
                uri: "/outreach/people", method: .post, headers: headers,
                body: ByteBuffer(
                    string: "_csrf=\(csrf)&year=\(year.lowercased)&firstName=A&lastName=B&enterpriseName=C"))
            #expect(late.status == .unauthorized)
            #expect(String(buffer: late.body).contains("this was not saved"))
            #expect(
                String(buffer: late.body).contains(
                    #"href="/signin?next=%2Foutreach%3Fyear%3D\#(year.lowercased)%26q%3Dada&amp;ended=1""#))
        }
    }
}
