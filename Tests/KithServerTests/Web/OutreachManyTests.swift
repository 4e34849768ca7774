import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

/// The Outreach list as a checklist app's: a search over a year, many people ticked or deleted at
/// once with Undo, and a CSV import that skips the lines it can't take and lists them by the box.
@Suite("Outreach web pages: search, many at once with undo, import report")
struct OutreachManyTests {
    typealias Browser = WebSessionTests.Browser

    /// The ids of the people rows of a list page, in order.
    static func shown(_ html: String) -> [String] {
        html.matches(of: /<tr id="person-([0-9a-f-]{36})"/).map { String($0.1) }
    }

    /// A year with three people: Ada Lovelace (Analytical), Grace Hopper (Navy, delivered) and
    /// Jürgen Müller (Bäckerei), and their ids by last name.
    static func threePeople(_ client: any TestClientProtocol) async throws -> (Browser, UUID, [String: String]) {
        var (browser, year) = try await OutreachPagesTests.signedUp(client, "ada@example.com")
        let csv = """
            First Name;Last Name;Enterprise;Delivered;Delivered At;Comments
            Ada;Lovelace;Analytical;no;;
            Grace;Hopper;Navy;yes;2026-11-21T10:00:00Z;compilers
            Jürgen;Müller;Bäckerei;no;;
            """
        let imported = try await browser.post(client, "/outreach/import", form: ["year": year.lowercased, "csv": csv])
        #expect(imported.status == .found, "semicolons are separators")
        let page = try await browser.get(client, "/outreach?year=\(year.lowercased)")
        var ids: [String: String] = [:]
        for match in page.text.matches(
            of: /<tr id="person-([0-9a-f-]{36})".*?<a href="\/outreach\/people\/[0-9a-f-]{36}">([^,<]+),/)
        {
            ids[String(match.2)] = String(match.1)
        }
        #expect(ids.count == 3, "\(page.text)")
        return (browser, year, ids)
    }

    @Test(arguments: Engine.available)
    func aSearchShowsThePeopleItFinds(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var (browser, year, ids) = try await Self.threePeople(client)
            let list = "/outreach?year=\(year.lowercased)"
            let muller = try await browser.get(client, list + "&q=muller")
            #expect(Self.shown(muller.text) == [ids["Müller"]], "accents and case are ignored")
            #expect(muller.text.contains("1 of 3 shown"))
            #expect(muller.text.contains(#"value="muller""#), "the box keeps what was typed")
            #expect(Self.shown(try await browser.get(client, list + "&q=BACKEREI").text) == [ids["Müller"]])
            #expect(Self.shown(try await browser.get(client, list + "&show=delivered").text) == [ids["Hopper"]])
            #expect(
                Self.shown(try await browser.get(client, list + "&show=not-delivered").text)
                    == [ids["Lovelace"], ids["Müller"]])
            let none = try await browser.get(client, list + "&q=nobody+like+that")
            #expect(Self.shown(none.text).isEmpty && none.text.contains("Nobody in"))
            #expect(none.text.contains("matches this search."))
            // The progress is the year's, whatever the search shows.
            #expect(
                none.text.contains(#"<span id="progress-delivered">1</span> of <span id="progress-total">3</span>"#))
        }
    }

    @Test(arguments: Engine.available)
    func manyTickedThenUndone(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var (browser, year, ids) = try await Self.threePeople(client)
            let list = "/outreach?year=\(year.lowercased)"
            let before = try await browser.get(client, list).text
            let graceTime = try #require(before.firstMatch(of: /<time datetime="([^"]+)"/).map { String($0.1) })
            let picks = [ids["Lovelace"]!, ids["Hopper"]!].map { ("pick", $0) }
            let ticked = try await browser.post(
                client, "/outreach/many",
                pairs: [("year", year.lowercased), ("change", "deliver"), ("_key", "many-1")] + picks)
            #expect(ticked.status == .ok)
            #expect(ticked.text.contains("Marked 1 person delivered."), "Grace was delivered already")
            #expect(ticked.text.contains(#"<span id="progress-delivered">2</span>"#))
            let payload = try #require(
                ticked.text.firstMatch(of: /name="undo" value="([^"]+)"/).map {
                    String($0.1).replacingOccurrences(of: "&quot;", with: "\"")
                })
            // Sent twice with its key, the form changes once and is answered alike.
            let again = try await browser.post(
                client, "/outreach/many",
                pairs: [("year", year.lowercased), ("change", "deliver"), ("_key", "many-1")] + picks)
            #expect(again.text.contains("Marked 1 person delivered."))

            let undone = try await browser.post(
                client, "/outreach/undo", form: ["year": year.lowercased, "undo": payload])
            #expect(undone.status == .found)
            let after = try await browser.get(client, try #require(undone.headers[.location]))
            #expect(after.text.contains("Undone: 1 person is as they were."))
            #expect(after.text.contains(#"<span id="progress-delivered">1</span>"#))
            #expect(after.text.contains(#"<time datetime="\#(graceTime)""#), "Grace keeps her time of delivery")

            let nothing = try await browser.post(
                client, "/outreach/many", pairs: [("year", year.lowercased), ("change", "deliver")])
            #expect(
                nothing.status == .unprocessableContent && nothing.text.contains("Tick the people to change first."))
            let unknown = try await browser.post(
                client, "/outreach/many",
                pairs: [("year", year.lowercased), ("change", "paint"), ("pick", ids["Müller"]!)])
            #expect(unknown.status == .unprocessableContent)
        }
    }

    @Test(arguments: Engine.available)
    func manyDeletedThenBackAndAnotherAccountUntouched(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var (browser, year, ids) = try await Self.threePeople(client)
            var (mallory, malloryYear) = try await OutreachPagesTests.signedUp(client, "mallory@example.com")
            // Another account's ids are not there for Mallory: nothing changes.
            let foreign = try await mallory.post(
                client, "/outreach/many",
                pairs: [("year", malloryYear.lowercased), ("change", "delete"), ("pick", ids["Lovelace"]!)])
            #expect(foreign.status == .notFound)

            let deleted = try await browser.post(
                client, "/outreach/many",
                pairs: [("year", year.lowercased), ("change", "delete"), ("q", "a")]
                    + [ids["Lovelace"]!, ids["Hopper"]!].map { ("pick", $0) })
            #expect(deleted.status == .ok)
            #expect(deleted.text.contains("Deleted 2 people."))
            #expect(Self.shown(deleted.text) == [ids["Müller"]], "the list as it was searched")
            #expect(deleted.text.contains(#"data-canonical-path="/outreach?year=\#(year.lowercased)&amp;q=a""#))
            let payload = try #require(
                deleted.text.firstMatch(of: /name="undo" value="([^"]+)"/).map {
                    String($0.1).replacingOccurrences(of: "&quot;", with: "\"")
                })
            let undone = try await browser.post(
                client, "/outreach/undo", form: ["year": year.lowercased, "undo": payload])
            let after = try await browser.get(client, try #require(undone.headers[.location]))
            #expect(after.text.contains("Undone: 2 people are back."))
            #expect(Self.shown(after.text).count == 3)
            #expect(after.text.contains("compilers"), "with their comments")
            #expect(after.text.contains(#"<span id="progress-delivered">1</span>"#), "and their delivery")

            // Mallory can't undo into Ada's year: the year is not hers.
            let stolen = try await mallory.post(
                client, "/outreach/undo", form: ["year": malloryYear.lowercased, "undo": payload])
            #expect(stolen.status == .notFound)
            let forged = try await browser.post(client, "/outreach/undo", form: ["year": year.lowercased, "undo": "{"])
            #expect(forged.status == .unprocessableContent)
            #expect(Self.shown(try await browser.get(client, "/outreach?year=\(year.lowercased)").text).count == 3)
        }
    }

    @Test(arguments: Engine.available)
    func anImportListsTheLinesItSkippedByTheBox(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var (browser, year) = try await OutreachPagesTests.signedUp(client, "ada@example.com")
            let csv = """
                First Name,Last Name,Enterprise,Delivered,Delivered At,Comments
                Ada,Lovelace,Analytical,no,,
                ,Turing,Bletchley,no,,
                Grace,Hopper,Navy,maybe,,
                Katherine,Johnson,NASA,no
                """
            let imported = try await browser.post(
                client, "/outreach/import", form: ["year": year.lowercased, "csv": csv])
            let location = try #require(imported.headers[.location])
            #expect(
                location.contains("skipped=3:missing-firstName,4:delivered,5:columns-4&skippedCount=3"), "\(location)")
            let page = try await browser.get(client, location)
            #expect(page.text.contains("Imported 1 person; 3 lines were skipped."))
            let report = try #require(
                page.text.firstMatch(of: /<div id="import-skipped"[\s\S]*?<\/div>/).map { String($0.0) })
            #expect(report.contains("<li>Line 3: Enter a first name.</li>"))
            #expect(report.contains("<li>Line 4: Delivered must be yes or no.</li>"))
            #expect(report.contains("<li>Line 5: It has 4 columns; a line needs 6.</li>"))
            #expect(page.text.contains(#"<details class="card" id="csv" open>"#), "the report is open by the box")
            // An address can't put words of its own there: unknown codes are dropped.
            let forged = try await browser.get(
                client, "/outreach?year=\(year.lowercased)&added=0&skipped=2:Call+us,3:missing-password")
            #expect(!forged.text.contains("import-skipped") && !forged.text.contains("Call us"))
        }
    }
}
