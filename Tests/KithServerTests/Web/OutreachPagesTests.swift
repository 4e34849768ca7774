import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

/// The Outreach web pages as one more device of the signed-in user: what they write goes through
/// the same rules as a push and reaches the user's devices; what devices push shows on the pages.
@Suite("Outreach web pages")
struct OutreachPagesTests {
    typealias Browser = WebSessionTests.Browser

    /// A browser signed up as `email`, on the Outreach page (which creates the current year).
    static func signedUp(_ client: any TestClientProtocol, _ email: String) async throws -> (Browser, UUID) {
        var browser = Browser()
        _ = try await browser.get(client, "/signup")
        let signedUp = try await browser.post(client, "/signup", form: ["email": email, "password": "correct horse"])
        #expect(signedUp.status == .found)
        let page = try await browser.get(client, "/outreach")
        #expect(page.status == .ok)
        return (browser, try #require(yearID(in: page.text)))
    }

    /// Delivered ticked on `person` as the page's script does: the answer and its JSON.
    static func tick(_ browser: Browser, _ client: any TestClientProtocol, _ person: String) async throws
        -> (TestResponse, [String: Any]?)
    {
        var headers = browser.cookieHeader
        headers[.contentType] = "application/x-www-form-urlencoded"
        headers[.accept] = "application/json"
        let csrf = browser.cookies[WebSessionMiddleware.csrfCookie] ?? ""
        let clicked = try await client.execute(
            uri: "/outreach/delivered", method: .post, headers: headers,
            body: ByteBuffer(string: "_csrf=\(csrf)&set=\(person)%3Atrue"))
        return (clicked, try JSONSerialization.jsonObject(with: Data(clicked.text.utf8)) as? [String: Any])
    }

    static func yearID(in html: String) -> UUID? {
        guard let range = html.range(of: #"data-year="([0-9a-f-]{36})""#, options: .regularExpression) else {
            return nil
        }
        return UUID(uuidString: String(html[range].dropFirst(11).dropLast()))
    }

    /// The user's outreach records as a device pulls them.
    static func pulled(_ client: any TestClientProtocol, token: String) async throws -> [ChangeDTO] {
        let response = try await client.call(.get, "/v1/sync/pull?limit=1000", token: token)
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(PullResponse.self).changes
    }

    @Test(arguments: Engine.available)
    func whatThePageDoesADevicePullsAndTheReverse(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, year) = try await Self.signedUp(client, "ada@example.com")
            let page = try await browser.get(client, "/outreach")
            #expect(page.text.contains("Outreach \(OutreachBook.calendarYear(of: server.clock.now))"))

            let added = try await browser.post(
                client, "/outreach/people",
                form: [
                    "year": year.lowercased, "firstName": " Ada ", "lastName": "Lovelace", "enterpriseName": "Engines",
                ])
            #expect(added.status == .found)

            let phone = try await client.logIn("ada@example.com", "correct horse").decode(AuthSessionResponse.self)
            let person = try #require(
                try await Self.pulled(client, token: phone.accessToken).first {
                    $0.entity == OutreachEntities.contact.name
                })
            #expect(person.fields["firstName"] == .string("Ada"), "trimmed, as on devices")
            #expect(
                added.headers[.location]
                    == "/outreach?year=\(year.lowercased)&notice=added&person=\(person.id.lowercased)")
            #expect(person.fields["delivered"] == .bool(false))

            // One click: JSON for the page's script, with the time of the click and the progress.
            let (clicked, answer) = try await Self.tick(browser, client, person.id.lowercased)
            #expect(clicked.status == .ok, "\(clicked.text)")
            #expect(answer?["delivered"] as? Bool == true)
            #expect(answer?["deliveredAt"] as? String == WireCoding.formatTimestamp(server.clock.now))
            #expect((answer?["progress"] as? [String: Int]) == ["delivered": 1, "total": 1])

            let delivered = try #require(
                try await Self.pulled(client, token: phone.accessToken).first { $0.id == person.id })
            #expect(delivered.fields["delivered"] == .bool(true))
            #expect(delivered.fields["deliveredAt"] == .string(WireCoding.formatTimestamp(server.clock.now)))

            // A device's later edit shows on the page.
            server.clock.advance(by: 1)
            var device = SyncAPITests.device(phone, node: "phone", server: server)
            let edit = device.mutation(
                person.id, .upsert, ["comments": .string("Likes <b>tea</b>")], entity: OutreachEntities.contact.name)
            #expect(try await SyncAPITests.push(client, device, [edit]).results.map(\.status) == [.applied])
            let shown = try await browser.get(client, "/outreach?year=\(year.lowercased)")
            #expect(shown.text.contains("Likes &lt;b&gt;tea&lt;/b&gt;"), "comments are shown, escaped")
            #expect(shown.text.contains("1</span> of <span id=\"progress-total\">1"))
        }
    }

    /// A tick answers its year's progress, counted by the database: that year's living people only,
    /// not another year's, not someone deleted.
    @Test(arguments: Engine.available)
    func aTickAnswersItsYearsProgress(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var (browser, year) = try await Self.signedUp(client, "ada@example.com")
            let header = "First Name,Last Name,Enterprise,Delivered,Delivered At,Comments\n"
            let csv =
                header + "Ada,Lovelace,Engines,yes,2026-11-21T10:00:00Z,\nAlan,Turing,Bletchley,no,,\n"
                + "Grace,Hopper,Navy,no,,\nEmmy,Noether,Erlangen,yes,2026-11-21T10:00:00Z,\n"
            _ = try await browser.post(client, "/outreach/import", form: ["year": year.lowercased, "csv": csv])
            let other = try await browser.post(client, "/outreach/years", form: ["name": "2099"])
            let otherYear = try #require(
                Self.yearID(in: try await browser.get(client, other.headers[.location] ?? "").text))
            _ = try await browser.post(
                client, "/outreach/import",
                form: [
                    "year": otherYear.lowercased, "csv": header + "Marie,Curie,Sorbonne,yes,2026-11-21T10:00:00Z,\n",
                ])
            let device = try await client.logIn("ada@example.com", "correct horse").decode(AuthSessionResponse.self)
            let people = try await Self.pulled(client, token: device.accessToken)
                .filter { $0.entity == OutreachEntities.contact.name }
            let id = { (last: String) in people.first { $0.fields["lastName"] == .string(last) }?.id.lowercased ?? "" }
            _ = try await browser.post(client, "/outreach/people/\(id("Noether"))/delete", form: [:])

            let (clicked, answer) = try await Self.tick(browser, client, id("Turing"))
            #expect((answer?["progress"] as? [String: Int]) == ["delivered": 2, "total": 3], "\(clicked.text)")
        }
    }

    @Test(arguments: Engine.available)
    func tabsOpenedAtOnceOnAFirstVisitShareOneNewYear(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var browser = Browser()
            _ = try await browser.get(client, "/signup")
            _ = try await browser.post(
                client, "/signup", form: ["email": "ada@example.com", "password": "correct horse"])
            let tab = browser
            let pages = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        var copy = tab; return try await copy.get(client, "/outreach")
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(pages.map(\.status) == Array(repeating: .ok, count: 4))
            #expect(
                Set(pages.compactMap { Self.yearID(in: $0.text) }).count == 1, "one current year, shown in every tab")
        }
    }

    @Test(arguments: Engine.available)
    func refusedChangesSayWhyAndChangeNothing(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var (browser, year) = try await Self.signedUp(client, "ada@example.com")
            let name = OutreachBook.calendarYear(of: Date())
            let duplicate = try await browser.post(client, "/outreach/years", form: ["name": " \(name.lowercased()) "])
            #expect(duplicate.status == .unprocessableContent)
            #expect(duplicate.text.contains("There is already a year named \(name)."))

            let lastYear = try await browser.post(client, "/outreach/years/\(year.lowercased)/delete", form: [:])
            #expect(lastYear.status == .unprocessableContent)
            #expect(lastYear.text.contains(OutreachRules.lastYear.message.replacingOccurrences(of: "'", with: "&#39;")))

            let blank = try await browser.post(
                client, "/outreach/people",
                form: ["year": year.lowercased, "firstName": "Ada", "lastName": "   ", "enterpriseName": "Engines"])
            #expect(blank.status == .unprocessableContent)
            #expect(blank.text.contains("value=\"Ada\""), "what was typed is kept")

            let notCSV = "Name,Company\nAda,Engines\n"
            let imported = try await browser.post(
                client, "/outreach/import", form: ["year": year.lowercased, "csv": notCSV])
            #expect(imported.status == .unprocessableContent)
            #expect(imported.text.contains("Line 1: the first row must be the header"))

            let page = try await browser.get(client, "/outreach?year=\(year.lowercased)")
            #expect(page.text.contains("id=\"no-people\""), "nobody was added by the refused forms")

            // A refused edit shows again what the person first saw, not what another tab saved since:
            // fixed and sent again, it still says whose change it replaces.
            let added = try await browser.post(
                client, "/outreach/people",
                form: [
                    "year": year.lowercased, "firstName": "Grace", "lastName": "Hopper", "enterpriseName": "US Navy",
                ])
            let person = try #require(
                added.headers[.location]?.firstMatch(of: /person=([0-9a-f-]{36})/).map { String($0.1) })
            let seen = [
                "seen.firstName": "Grace", "seen.lastName": "Hopper", "seen.enterpriseName": "US Navy",
                "seen.comments": "",
            ]
            _ = try await browser.post(
                client, "/outreach/people/\(person)",
                form: ["firstName": "Grace", "lastName": "Hopper", "enterpriseName": "US Navy Reserve", "comments": ""]
                    .merging(seen) { $1 })
            let refused = try await browser.post(
                client, "/outreach/people/\(person)",
                form: ["firstName": "", "lastName": "Hopper", "enterpriseName": "Harvard", "comments": ""].merging(seen)
                { $1 })
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(#"name="seen.enterpriseName" value="US Navy""#), "\(refused.text)")
            #expect(
                try await browser.post(client, "/outreach/delivered", form: ["set": "not-an-id:true"]).status
                    == .notFound)
            #expect(
                try await browser.post(client, "/outreach/delivered", form: ["set": "nonsense"]).status
                    == .unprocessableContent)
        }
    }

    @Test(arguments: Engine.available)
    func anotherUsersYearsAndPeopleAreNotFound(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var (ada, adaYear) = try await Self.signedUp(client, "ada@example.com")
            _ = try await ada.post(
                client, "/outreach/people",
                form: [
                    "year": adaYear.lowercased, "firstName": "Grace", "lastName": "Hopper", "enterpriseName": "Navy",
                ])
            let adaApp = try await client.logIn("ada@example.com", "correct horse").decode(AuthSessionResponse.self)
            let grace = try #require(
                try await Self.pulled(client, token: adaApp.accessToken).first {
                    $0.entity == OutreachEntities.contact.name
                })

            var (bob, _) = try await Self.signedUp(client, "bob@example.com")
            let attempts: [(String, [String: String])] = [
                ("/outreach/delivered", ["set": "\(grace.id.lowercased):true"]),
                (
                    "/outreach/people/\(grace.id.lowercased)",
                    ["firstName": "X", "lastName": "Y", "enterpriseName": "Z"]
                ),
                ("/outreach/people/\(grace.id.lowercased)/delete", [:]),
                ("/outreach/years/\(adaYear.lowercased)/rename", ["name": "Mine"]),
                ("/outreach/years/\(adaYear.lowercased)/delete", [:]),
                ("/outreach/select", ["year": adaYear.lowercased]),
                (
                    "/outreach/import",
                    [
                        "year": adaYear.lowercased,
                        "csv": "First Name,Last Name,Enterprise,Delivered,Delivered At,Comments\n",
                    ]
                ),
            ]
            for (path, form) in attempts {
                #expect(try await bob.post(client, path, form: form).status == .notFound, "\(path)")
            }
            #expect(try await bob.get(client, "/outreach/people/\(grace.id.lowercased)").status == .notFound)
            for year in [adaYear.lowercased, UUID().lowercased, "not-a-year"] {
                let export = try await bob.get(client, "/outreach/export?year=\(year)")
                #expect(export.status == .notFound, "export of \(year)")
                #expect(!export.text.contains("Hopper"))
            }
            let bobsPage = try await bob.get(client, "/outreach?year=\(adaYear.lowercased)")
            #expect(!bobsPage.text.contains("Hopper"), "another user's year is never shown")

            let after = try #require(
                try await Self.pulled(client, token: adaApp.accessToken).first { $0.id == grace.id })
            #expect(after.fields == grace.fields && !after.deleted, "nothing of Ada's changed")
            let years = try await Self.pulled(client, token: adaApp.accessToken).filter {
                $0.entity == OutreachEntities.year.name
            }
            #expect(years.count == 1 && years.first?.deleted == false)
        }
    }

    @Test(arguments: Engine.available)
    func theLiveSocketTakesTheSessionCookieOnlyFromThisServersPages(engine: Engine) async throws {
        try await TestServer.withLiveServer(engine, configure: { $0.live.authTimeout = .milliseconds(300) }) {
            _, port, client in
            var (browser, year) = try await Self.signedUp(client, "ada@example.com")
            let cookie = try #require(browser.cookieHeader[.cookie])
            let page = try await RawWebSocket.open(
                port: port, headers: [("Cookie", cookie), ("Origin", "http://127.0.0.1:\(port)")])
            #expect(LiveMessage(text: try #require(try await page.nextFrame()).text) == .ready)

            for origins in [["https://evil.example"], [], ["http://127.0.0.1:\(port)", "https://evil.example"]] {
                let elsewhere = try await RawWebSocket.open(
                    port: port, headers: [("Cookie", cookie)] + origins.map { ("Origin", $0) })
                let refusal = LiveMessage(text: try #require(try await elsewhere.nextFrame()).text)
                #expect(refusal?.code == "unauthorized", "Origin \(origins): another site's page gets nothing")
            }

            // The page's own change nudges its socket (and every device of the user).
            _ = try await browser.post(
                client, "/outreach/people",
                form: [
                    "year": year.lowercased, "firstName": "Ada", "lastName": "Lovelace", "enterpriseName": "Engines",
                ])
            let nudge = LiveMessage(text: try #require(try await page.nextFrame()).text)
            #expect(nudge?.type == .changed)
        }
    }
}
