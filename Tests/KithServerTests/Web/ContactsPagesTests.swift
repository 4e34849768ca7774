import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

/// The Contacts pages' shells and the address formats they read; what the pages show is tested in
/// a browser (Tests/browser/test_contacts.py), and the `/api` they call in the Monica suites.
@Suite("Contacts web pages")
struct ContactsPagesTests {
    typealias Browser = WebSessionTests.Browser

    static func signedUp(_ client: any TestClientProtocol, _ email: String) async throws -> Browser {
        var browser = Browser()
        _ = try await browser.get(client, "/signup")
        let signedUp = try await browser.post(client, "/signup", form: ["email": email, "password": "correct horse"])
        #expect(signedUp.status == .found)
        return browser
    }

    /// The token of the page's `<meta name="csrf-token">`, which the page scripts send with writes.
    static func metaCSRFToken(_ html: String) -> String? {
        guard let range = html.range(of: #"<meta name="csrf-token" content="[^"]+">"#, options: .regularExpression)
        else { return nil }
        return String(html[range].dropFirst(#"<meta name="csrf-token" content=""#.count).dropLast(2))
    }

    @Test(arguments: Engine.available)
    func signedOutVisitorsAreSentToSignIn(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var browser = Browser()
            for path in ["/contacts", "/contacts/1", "/contacts/new", "/contacts/1/edit"] {
                let page = try await browser.get(client, path)
                #expect(page.status == .found, "\(path)")
                #expect(page.headers[.location] == "/signin?next=" + FormEncoding.encode(path), "\(path)")
            }
            let formats = try await browser.get(client, "/contacts/address-formats.json")
            #expect(formats.status == .unauthorized, "a script's request is told, not redirected")
        }
    }

    @Test(arguments: Engine.available)
    func theListAndContactShellsCarryWhatTheScriptsNeed(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var browser = try await Self.signedUp(client, "ada@example.com")
            let list = try await browser.get(client, "/contacts")
            #expect(list.status == .ok)
            #expect(list.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            #expect(list.text.contains(#"id="nav-contacts" href="/contacts""#))
            #expect(list.text.contains(#"<script src="/static/contacts.js" defer>"#))
            #expect(list.text.contains(#"id="contact-search""#) && list.text.contains(#"id="contact-list""#))
            let csrf = try #require(browser.cookies[WebSessionMiddleware.csrfCookie])
            #expect(Self.metaCSRFToken(list.text) == csrf, "the page carries the browser's CSRF token")

            let contact = try await browser.get(client, "/contacts/42")
            #expect(contact.status == .ok)
            #expect(contact.text.contains(#"data-contact-id="42""#))
            #expect(contact.text.contains(#"<script src="/static/contact-addresses.js" defer>"#))
            #expect(contact.text.contains(#"<dialog id="confirm-dialog""#))

            let notAnID = try await browser.get(client, "/contacts/ada")
            #expect(notAnID.status == .notFound)
            #expect(notAnID.text.contains("This contact was not found."))

            let account = try await browser.get(client, "/account")
            #expect(Self.metaCSRFToken(account.text) == nil, "only the pages that call /api carry it")
        }
    }

    @Test(arguments: Engine.available)
    func theFormShellsAndTheEmptyListsWayToAMonicaApp(engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: { $0.publicURL = "https://kith.example/" }) { _, client in
            var browser = try await Self.signedUp(client, "ada@example.com")
            let list = try await browser.get(client, "/contacts")
            #expect(list.text.contains(#"<code id="monica-server-url">https://kith.example</code>"#))
            #expect(list.text.contains("<code>https://kith.example/api</code>"))
            #expect(list.text.contains(#"<a class="btn btn-primary" id="add-contact" href="/contacts/new">"#))
            for value in ["first_name", "last_name", "-created_at", "created_at"] {
                #expect(list.text.contains(#"<option value="\#(value)">"#), "the sort offers \(value)")
            }

            let new = try await browser.get(client, "/contacts/new")
            #expect(new.status == .ok)
            #expect(new.text.contains("<title>Add a contact · Kith</title>"))
            #expect(new.text.contains(#"<script src="/static/contact-form.js" defer>"#))
            #expect(new.text.contains(#"<form id="contact-form""#) && !new.text.contains("data-contact-id"))
            #expect(Self.metaCSRFToken(new.text) == browser.cookies[WebSessionMiddleware.csrfCookie])

            let edit = try await browser.get(client, "/contacts/42/edit")
            #expect(edit.status == .ok)
            #expect(edit.text.contains(#"id="contact-form-page" data-contact-id="42""#))
            #expect(edit.text.contains(#"href="/contacts/42">Cancel</a>"#))
            #expect(try await browser.get(client, "/contacts/0/edit").status == .notFound)
            #expect(try await browser.get(client, "/contacts/ada/edit").status == .notFound)

            let contact = try await browser.get(client, "/contacts/42")
            for script in ["contact-editor.js", "tile-map.js", "contact-sections.js"] {
                #expect(contact.text.contains(#"<script src="/static/\#(script)" defer>"#), "\(script)")
            }
            #expect(contact.text.contains(#"<dialog id="map-dialog""#))
            #expect(contact.text.contains(#"href="/contacts/42/edit">Edit contact</a>"#))
        }
    }

    @Test(arguments: Engine.available)
    func thePageTokenLetsThePageWriteThroughTheAPI(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var browser = try await Self.signedUp(client, "ada@example.com")
            let token = try #require(Self.metaCSRFToken(try await browser.get(client, "/contacts").text))
            var headers = browser.cookieHeader
            headers[.contentType] = "application/json"
            headers[MonicaAuthMiddleware.csrfHeader] = token
            let created = try await client.execute(
                uri: "/api/contacts", method: .post, headers: headers,
                body: ByteBuffer(
                    string:
                        #"{"first_name":"Grace","is_birthdate_known":false,"is_deceased":false,"is_deceased_date_known":false}"#
                ))
            #expect(created.status == .created, "\(created.text)")
            let listed = try await client.execute(
                uri: "/api/contacts", method: .get, headers: browser.cookieHeader, body: nil)
            #expect(listed.text.contains(#""complete_name":"Grace""#))
        }
    }

    @Test(arguments: Engine.available)
    func addressFormatsComeFromKithCore(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var browser = try await Self.signedUp(client, "ada@example.com")
            let answer = try await browser.get(client, "/contacts/address-formats.json")
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/json")
            let json = try #require(JSONTree.parse(Data(buffer: answer.body)))
            #expect(json["standard"]?["postalCodeLabel"] == "Postal Code")
            let expected: [(String, String, String)] = [
                ("US", "ZIP Code", "State"), ("GB", "Postcode", "County"), ("AU", "Postcode", "State"),
                ("IN", "PIN Code", "State"), ("IT", "CAP", "Province"), ("DE", "PLZ", "State"),
                ("CA", "Postal Code", "Province"),
            ]
            for (code, postal, region) in expected {
                #expect(json["countries"]?[code]?["postalCodeLabel"]?.stringValue == postal, "\(code)")
                #expect(json["countries"]?[code]?["regionLabel"]?.stringValue == region, "\(code)")
            }
            // "Springfield, IL 62701": the city line of the United States, as KithCore orders it.
            let cityLine = json["countries"]?["US"]?["lines"]?.arrayValue?[1].arrayValue ?? []
            #expect(cityLine.map { $0["part"]?.stringValue } == ["city", "province", "postalCode"])
            #expect(cityLine.map { $0["separator"]?.stringValue } == ["", ", ", " "])
            #expect(
                json["countries"]?.objectValue?.count == AddressFormat.allCountries.count,
                "every country that differs from the standard")
        }
    }
}
