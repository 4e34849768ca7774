import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

/// What the Outreach pages tell a person (issue 19): a refused field in words next to it, what an
/// add, a save or a delete did, a question before a second person of the same name, a CSV Excel
/// reads with its accents, and no delete button for the only year.
@Suite("Outreach web pages: refusals, notices, duplicates, CSV")
struct OutreachFeedbackTests {
    typealias Browser = WebSessionTests.Browser

    /// The people rows of a list page.
    static func rows(_ html: String) -> Int { html.matches(of: /<tr id="person-/).count }

    static func person(
        _ browser: inout Browser, _ client: any TestClientProtocol, _ year: UUID, _ fields: [String: String]
    ) async throws -> TestResponse {
        var form = fields
        form["year"] = year.lowercased
        return try await browser.post(client, "/outreach/people", form: form)
    }

    @Test(arguments: Engine.available)
    func aRefusedFieldIsShownNextToItInWords(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var (browser, year) = try await OutreachPagesTests.signedUp(client, "ada@example.com")
            let refused = try await Self.person(
                &browser, client, year,
                ["firstName": "  ", "lastName": String(repeating: "L", count: 51), "enterpriseName": "Engines"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(#"<p id="firstName-error" class="field-error">Enter a first name.</p>"#))
            #expect(
                refused.text.contains(
                    #"<p id="lastName-error" class="field-error">Shorten the last name to 50 characters or fewer (it has 51).</p>"#
                ))
            #expect(
                refused.text.contains(
                    #"name="firstName" required maxlength="50" value="  " autocomplete="off" aria-invalid="true" aria-describedby="firstName-error">"#
                ))
            #expect(!refused.text.contains(#"id="enterpriseName-error""#), "only the refused fields")
            #expect(!refused.text.contains("is required.") && !refused.text.contains(#"id="form-error""#))
            #expect(Self.rows(refused.text) == 0, "nothing was written")

            let ada = try await Self.person(
                &browser, client, year, ["firstName": "Ada", "lastName": "Lovelace", "enterpriseName": "Engines"])
            let id = try #require(ada.headers[.location]?.firstMatch(of: /person=([0-9a-f-]{36})/).map { String($0.1) })
            let edit = try await browser.post(
                client, "/outreach/people/\(id)",
                form: ["firstName": "Ada", "lastName": "Lovelace", "enterpriseName": " ", "comments": ""])
            #expect(edit.status == .unprocessableContent)
            #expect(edit.text.contains(#"<p id="enterpriseName-error" class="field-error">Enter the enterprise.</p>"#))
            #expect(edit.text.contains(#"value=" " aria-invalid="true" aria-describedby="enterpriseName-error">"#))
            let page = try await browser.get(client, "/outreach/people/\(id)")
            #expect(page.text.contains("Engines"), "the edit changed nothing")
        }
    }

    @Test(arguments: Engine.available)
    func addSaveAndDeleteSayWhatTheyDid(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, year) = try await OutreachPagesTests.signedUp(client, "ada@example.com")
            let name = OutreachBook.calendarYear(of: server.clock.now)
            let added = try await Self.person(
                &browser, client, year, ["firstName": "Ada", "lastName": "Lovelace", "enterpriseName": "Engines"])
            let location = try #require(added.headers[.location])
            let id = try #require(location.firstMatch(of: /person=([0-9a-f-]{36})/).map { String($0.1) })
            #expect(location == "/outreach?year=\(year.lowercased)&notice=added&person=\(id)")
            #expect(try await browser.get(client, location).text.contains("Added Ada Lovelace to \(name)."))
            // The words come from the person's own data: a link can't put others on the page.
            for forged in [
                "/outreach?notice=added&person=\(UUID().uuidString)", "/outreach?notice=Hacked",
                "/outreach?notice=added&person=Mallory",
            ] {
                let page = try await browser.get(client, forged)
                #expect(page.status == .ok && !page.text.contains(#"id="notice""#), "\(forged)")
            }

            let saved = try await browser.post(
                client, "/outreach/people/\(id)",
                form: ["firstName": "Augusta Ada", "lastName": "Lovelace", "enterpriseName": "Engines", "comments": ""])
            let savedAt = try #require(saved.headers[.location])
            #expect(savedAt == "/outreach?year=\(year.lowercased)&notice=saved&person=\(id)")
            #expect(try await browser.get(client, savedAt).text.contains("Saved Augusta Ada Lovelace."))

            let deleted = try await browser.post(client, "/outreach/people/\(id)/delete", form: [:])
            #expect(deleted.status == .ok)
            #expect(deleted.text.contains("Deleted Augusta Ada Lovelace."))
            #expect(deleted.text.contains(#"data-canonical-path="/outreach?year=\#(year.lowercased)""#))
            #expect(Self.rows(deleted.text) == 0)

            let newYear = try await browser.post(client, "/outreach/years", form: ["name": "2099"])
            let newYearAt = try #require(newYear.headers[.location])
            #expect(newYearAt.hasSuffix("&notice=year-added"))
            #expect(try await browser.get(client, newYearAt).text.contains("Added the year 2099."))
            let newID = try #require(OutreachPagesTests.yearID(in: try await browser.get(client, newYearAt).text))
            let renamed = try await browser.post(
                client, "/outreach/years/\(newID.lowercased)/rename", form: ["name": "2100"])
            let renamedAt = try #require(renamed.headers[.location])
            let renamedPage = try await browser.get(client, renamedAt)
            #expect(renamedPage.text.contains("Renamed the year to 2100."))
            #expect(renamedPage.text.contains(#"name="seen.name" value="2100""#), "the rename form says what it showed")
            // A tab still showing 2099 renames it: the later rename wins, and the page says so.
            let stale = try await browser.post(
                client, "/outreach/years/\(newID.lowercased)/rename", form: ["name": "2101", "seen.name": "2099"])
            let staleAt = try #require(stale.headers[.location])
            #expect(staleAt.hasSuffix("&replaced=name"))
            #expect(
                try await browser.get(client, staleAt).text.contains(
                    "Renamed the year to 2101. Your name replaced a change made elsewhere after you opened the page."))
            let gone = try await browser.post(client, "/outreach/years/\(newID.lowercased)/delete", form: [:])
            #expect(gone.status == .ok && gone.text.contains("Deleted the year 2101."), "\(gone.text.prefix(200))")
        }
    }

    @Test(arguments: Engine.available)
    func aSecondPersonOfTheSameNameAndEnterpriseIsAskedAbout(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, year) = try await OutreachPagesTests.signedUp(client, "ada@example.com")
            let name = OutreachBook.calendarYear(of: server.clock.now)
            let ada = ["firstName": "Ada", "lastName": "Lovelace", "enterpriseName": "Engines"]
            #expect(try await Self.person(&browser, client, year, ada).status == .found)

            let again = [
                "firstName": " ada ", "lastName": "LOVELACE", "enterpriseName": "engines", "comments": "Again",
            ]
            let asked = try await Self.person(&browser, client, year, again)
            #expect(asked.status == .conflict)
            #expect(
                asked.text.contains(
                    "Ada Lovelace of Engines is already in \(name). Add another person with the same name and enterprise?"
                ))
            #expect(asked.text.contains(#"<input type="hidden" name="confirmDuplicate" value="yes">"#))
            #expect(
                asked.text.contains(#"<input type="hidden" name="comments" value="Again">"#),
                "what was typed goes along")
            #expect(Self.rows(asked.text) == 1, "nothing was added yet")

            var confirmed = again
            confirmed["confirmDuplicate"] = "yes"
            #expect(try await Self.person(&browser, client, year, confirmed).status == .found)
            #expect(Self.rows(try await browser.get(client, "/outreach?year=\(year.lowercased)").text) == 2)

            // Another enterprise, or another year, is not the same person.
            var elsewhere = ada
            elsewhere["enterpriseName"] = "Analytical Society"
            #expect(try await Self.person(&browser, client, year, elsewhere).status == .found)
            let other = try await browser.post(client, "/outreach/years", form: ["name": "2099"])
            let otherAt = try #require(other.headers[.location])
            let otherYear = try #require(OutreachPagesTests.yearID(in: try await browser.get(client, otherAt).text))
            #expect(try await Self.person(&browser, client, otherYear, ada).status == .found)
        }
    }

    @Test(arguments: Engine.available)
    func theCSVOpensInExcelWithItsAccentsAndTheOnlyYearHasNoDeleteButton(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var (browser, year) = try await OutreachPagesTests.signedUp(client, "ada@example.com")
            let only = try await browser.get(client, "/outreach?year=\(year.lowercased)")
            #expect(!only.text.contains(#"id="delete-year-link""#))
            #expect(
                try await Self.person(
                    &browser, client, year, ["firstName": "Émile", "lastName": "Zola", "enterpriseName": "Fasquelle"]
                ).status == .found)

            let export = try await browser.get(client, "/outreach/export?year=\(year.lowercased)")
            let bytes = Array(export.body.readableBytesView)
            #expect(Array(bytes.prefix(3)) == [0xEF, 0xBB, 0xBF], "a UTF-8 byte-order mark first")
            let text = String(decoding: bytes.dropFirst(3), as: UTF8.self)
            #expect(text.hasPrefix("First Name,Last Name,Enterprise,Delivered,Delivered At,Comments\r\n"))
            #expect(text.contains("Émile,Zola,Fasquelle,no,,"))
            // The file goes back in as it came out.
            let imported = try await browser.post(
                client, "/outreach/import",
                form: ["year": year.lowercased, "csv": String(decoding: bytes, as: UTF8.self)])
            #expect(imported.status == .found, "\(imported.text.prefix(300))")

            _ = try await browser.post(client, "/outreach/years", form: ["name": "2099"])
            let two = try await browser.get(client, "/outreach?year=\(year.lowercased)")
            #expect(two.text.contains(#"id="delete-year-link""#))
        }
    }
}
