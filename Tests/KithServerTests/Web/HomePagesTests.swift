import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

/// The pages every app shares: the home page, help, the header's current page, a 404 while
/// signed in, and moments written in the reader's time zone.
@Suite("Home, help and shared web pages")
struct HomePagesTests {
    typealias Browser = WebSessionTests.Browser

    static func html(_ browser: Browser, _ client: any TestClientProtocol, _ path: String) async throws -> TestResponse
    {
        var headers = browser.cookieHeader
        headers[.accept] = "text/html,application/xhtml+xml"
        return try await client.execute(uri: path, method: .get, headers: headers, body: nil)
    }

    /// The ids of the header's links marked as the current page.
    static func current(_ html: String) -> [String] {
        html.matches(of: /<a class="[^"]*" id="([a-z-]+)" href="[^"]*" aria-current="page"/).map { String($0.1) }
    }

    @Test(arguments: Engine.available)
    func theHomePageSaysWhereThePersonStandsInEachApp(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var anonymous = Browser()
            let signedOut = try await anonymous.get(client, "/")
            #expect(signedOut.status == .seeOther || signedOut.status == .found, "\(signedOut.status)")
            #expect(signedOut.headers[.location] == "/signin")

            var browser = try await ContactsPagesTests.signedUp(client, "ada@example.com")
            let first = try await browser.get(client, "/")
            #expect(first.status == .ok)
            #expect(first.text.contains("<title>Home · Kith</title>"))
            #expect(first.text.contains("Nobody on this year's list yet"), "showing writes nothing: no year yet")
            #expect(first.text.contains("Today: 0 kcal"))
            #expect(first.text.contains("Start a family or join one with a code"))
            #expect(first.text.contains(#"<script src="/static/home.js" defer>"#), "the contacts' count, from /api")
            #expect(Self.current(first.text) == ["nav-home"])

            // This year's deliveries and today's calories against the goal.
            let year = try #require(OutreachPagesTests.yearID(in: try await browser.get(client, "/outreach").text))
            for (first, last) in [("Ada", "Lovelace"), ("Grace", "Hopper")] {
                let added = try await browser.post(
                    client, "/outreach/people",
                    form: ["year": year.lowercased, "firstName": first, "lastName": last, "enterpriseName": "Navy"])
                #expect(added.status == .found)
            }
            let book = try await browser.get(client, "/outreach?year=\(year.lowercased)")
            let person = try #require(book.text.firstMatch(of: /data-person="([0-9a-f-]{36})"/).map { String($0.1) })
            #expect(
                try await browser.post(client, "/outreach/delivered", form: ["set": "\(person):true"]).status == .found)
            #expect(
                try await browser.post(client, "/food/goal", form: ["dailyCalories": "2000", "timeZone": "UTC"]).status
                    == .found)
            let today = LocalDate(server.clock.now, in: .gmt)
            let logged = try await browser.post(
                client, "/food/items", form: ["date": "\(today)", "name": "Porridge", "calories": "1250"])
            #expect(logged.status == .found, "\(logged.text.prefix(300))")

            let home = try await browser.get(client, "/")
            let calendarYear = OutreachBook.calendarYear(of: server.clock.now)
            #expect(home.text.contains("\(calendarYear): 1 of 2 delivered"), "\(home.text)")
            #expect(home.text.contains(#"<progress class="app-progress" id="outreach-progress" max="2" value="1""#))
            #expect(home.text.contains("Today: 1,250 of 2,000 kcal"))
            #expect(home.text.contains(#"id="food-progress" max="2000" value="1250""#))
        }
    }

    @Test(arguments: Engine.available)
    func theHeaderMarksTheCurrentApp(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var browser = try await ContactsPagesTests.signedUp(client, "ada@example.com")
            for (path, link) in [
                ("/contacts", "nav-contacts"), ("/contacts/new", "nav-contacts"), ("/contacts/7", "nav-contacts"),
                ("/outreach", "nav-outreach"), ("/food", "nav-food"), ("/family", "nav-family"),
                ("/account", "nav-account"), ("/", "nav-home"),
            ] {
                let page = try await browser.get(client, path)
                #expect(page.status == .ok, "\(path)")
                #expect(Self.current(page.text) == [link], "\(path)")
            }
            let help = try await browser.get(client, "/help")
            #expect(Self.current(help.text) == [])
            #expect(help.text.contains(#"id="help-link" aria-current="page""#))
        }
    }

    @Test(arguments: Engine.available)
    func helpSaysHowToConnectAMonicaAppAndTheCommandLine(engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: { $0.publicURL = "https://kith.example" }) { _, client in
            var browser = Browser()
            let help = try await browser.get(client, "/help")
            #expect(help.status == .ok, "signed out too")
            #expect(help.text.contains(#"<code id="help-server-url">https://kith.example</code>"#))
            #expect(help.text.contains(#"<code id="help-api-url">https://kith.example/api</code>"#))
            #expect(help.text.contains("kith --server https://kith.example account login you@example.com"))
            #expect(help.text.contains("Account → API tokens"))
        }
    }

    @Test(arguments: Engine.available)
    func aPageThatDoesNotExistKeepsTheSignedInHeader(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let stranger = try await Self.html(Browser(), client, "/no/such/page")
            #expect(stranger.status == .notFound)
            #expect(stranger.text.contains("<title>Page not found · Kith</title>"))
            #expect(stranger.text.contains(#"href="/signin">Sign in</a>"#))

            let browser = try await ContactsPagesTests.signedUp(client, "ada@example.com")
            let missing = try await Self.html(browser, client, "/no/such/page")
            #expect(missing.status == .notFound)
            #expect(missing.text.contains("<title>Page not found · Kith</title>"))
            #expect(missing.text.contains("<h1>Page not found</h1>"))
            #expect(!missing.text.contains("Something went wrong"))
            #expect(missing.text.contains("ada@example.com") && missing.text.contains(#"id="signout-form""#))
            let csrf = try #require(browser.cookies[WebSessionMiddleware.csrfCookie])
            #expect(missing.text.contains(#"name="_csrf" value="\#(csrf)""#), "Sign out works from there")

            // A route's own 404 (another user's year) says so too.
            let year = try await Self.html(browser, client, "/outreach/years/\(UUID().uuidString)/delete")
            #expect(year.status == .notFound && year.text.contains("<title>Page not found · Kith</title>"))
            // An API client still gets JSON.
            let api = try await client.execute(
                uri: "/no/such/page", method: .get, headers: [.accept: "application/json"])
            #expect(api.status == .notFound && api.text.hasPrefix(#"{"error":"#))
        }
    }

    @Test(arguments: Engine.available)
    func momentsAreWrittenInTheReadersZoneOnceTheBrowserToldIt(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var browser = try await ContactsPagesTests.signedUp(client, "ada@example.com")
            let account = try await browser.get(client, "/account")
            let created = WebTime.text(server.clock.now, in: nil)
            #expect(created.hasSuffix(" UTC"), "\(created)")
            #expect(
                account.text.contains(#"data-local>\#(created)</time>"#), "UTC, saying so, before the zone is known")
            #expect(!account.text.contains("GMT"))

            browser.cookies[WebTime.zoneCookie] = "Pacific%2FAuckland"
            let local = try await browser.get(client, "/account")
            let auckland = try #require(TimeZone(identifier: "Pacific/Auckland"))
            let text = WebTime.text(server.clock.now, in: auckland)
            #expect(!text.hasSuffix("UTC"), "\(text)")
            #expect(local.text.contains(#"data-local>\#(text)</time>"#), "\(text)")

            browser.cookies[WebTime.zoneCookie] = "Not%2FA_Zone"
            #expect(try await browser.get(client, "/account").text.contains(created), "an unknown zone: UTC")
        }
    }

    @Test func theTimeStyleIsOneForEveryPage() throws {
        let moment = try #require(WireCoding.parseTimestamp("2026-11-26T09:05:00.000Z"))
        #expect(WebTime.text(moment, in: nil) == "26 Nov 2026, 09:05 UTC")
        #expect(WebTime.text(moment, in: TimeZone(identifier: "America/New_York")) == "26 Nov 2026, 04:05")
        #expect(WebTime.text(moment, in: TimeZone(identifier: "Pacific/Auckland")) == "26 Nov 2026, 22:05")
    }
}
