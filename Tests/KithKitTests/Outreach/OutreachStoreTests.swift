import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithKit

@Suite("Outreach store")
@MainActor
struct OutreachStoreTests {
    static let userScope = "user:\(UUID().uuidString.lowercased())"

    static func store(now: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 1_795_000_000) }) throws
        -> OutreachStore
    {
        OutreachStore(store: try LocalStore(url: nil, catalog: .kith, userScope: userScope, now: now), now: now)
    }

    @Test func theFirstLaunchShowsTheCurrentYearCreatedOnTheSpot() async throws {
        let outreach = try Self.store()  // 2026-11-17
        let year = try outreach.selectedYear()
        #expect(year.name == "2026")
        #expect(try outreach.years().map(\.name) == ["2026"])
        #expect(try outreach.selectedYear() == year, "asking again creates nothing more")
    }

    @Test func yearNamesAreTrimmedUniqueAndShort() async throws {
        let outreach = try Self.store()
        try outreach.addYear(" 2025 ")
        #expect(try outreach.years().map(\.name) == ["2025"])
        let duplicate = await expectKithError { try outreach.addYear("2025") }
        #expect(duplicate?.field == "name")
        #expect(duplicate?.userMessage == "There is already a year named 2025.")
        #expect(await expectKithError { try outreach.addYear("   ") }?.field == "name")
        #expect(
            await expectKithError { try outreach.addYear(String(repeating: "9", count: 21)) }?.userMessage.contains(
                "20") == true)
        let other = try outreach.addYear("2026")
        #expect(await expectKithError { try outreach.renameYear(other.id, to: "2025") } != nil)
        try outreach.renameYear(other.id, to: "Fall 2026")
        #expect(try outreach.years().map(\.name) == ["Fall 2026", "2025"])
    }

    @Test func deletingAYearTakesItsPeopleAndNeverTheLastYear() async throws {
        let outreach = try Self.store()
        let old = try outreach.addYear("2025")
        let new = try outreach.addYear("2026")
        try outreach.addContact(to: old.id, firstName: "Ada", lastName: "Lovelace", enterpriseName: "Analytical")
        let kept = try outreach.addContact(
            to: new.id, firstName: "Alan", lastName: "Turing", enterpriseName: "Bletchley")
        try outreach.selectYear(old.id)

        try outreach.deleteYear(old.id)
        #expect(try outreach.years().map(\.name) == ["2026"])
        #expect(try outreach.selectedYear() == new, "another year is shown after a delete")
        #expect(try outreach.store.records("outreach.contact").map(\.id) == [kept.id], "the year's people went with it")
        let last = await expectKithError { try outreach.deleteYear(new.id) }
        #expect(last?.userMessage == "The last year can't be deleted.")
        #expect(try outreach.years().count == 1)
    }

    @Test func theSelectedYearIsRememberedAndSharedByTheAccountsDevices() async throws {
        let outreach = try Self.store()
        let old = try outreach.addYear("2025")
        try outreach.addYear("2026")
        try outreach.selectYear(old.id)
        #expect(try outreach.selectedYear() == old)
        // Another device of the account derives the same preferences record.
        let other = try Self.store()
        #expect(other.preferencesID == outreach.preferencesID)
        let stranger = OutreachStore(
            store: try LocalStore(url: nil, catalog: .kith, userScope: "user:\(UUID().uuidString.lowercased())"))
        #expect(stranger.preferencesID != outreach.preferencesID)
    }

    @Test func peopleAreListedByLastThenFirstNameIgnoringCaseAndAccents() async throws {
        let outreach = try Self.store()
        let year = try outreach.selectedYear()
        for (first, last) in [("zoe", "Émile"), ("Bob", "adams"), ("Amy", "Adams"), ("Carl", "Eaton")] {
            try outreach.addContact(to: year.id, firstName: first, lastName: last, enterpriseName: "Acme")
        }
        #expect(try outreach.contacts(in: year.id).map(\.firstName) == ["Amy", "Bob", "Carl", "zoe"])
    }

    @Test func deliveringSetsTheTimeOfTheTapAndUndeliveringClearsIt() async throws {
        let tap = Date(timeIntervalSince1970: 1_795_000_123.456)
        let outreach = try Self.store(now: { tap })
        let year = try outreach.selectedYear()
        let ada = try outreach.addContact(
            to: year.id, firstName: " Ada ", lastName: "Lovelace", enterpriseName: "Analytical")
        #expect(ada.firstName == "Ada")
        #expect(try outreach.progress(of: year.id) == OutreachProgress(delivered: 0, total: 1))

        let delivered = try outreach.setDelivered(ada.id, true)
        #expect(delivered.delivered)
        #expect(delivered.deliveredAt.map(WireCoding.formatTimestamp) == WireCoding.formatTimestamp(tap))
        #expect(try outreach.progress(of: year.id).fraction == 1)
        let undelivered = try outreach.setDelivered(ada.id, false)
        #expect(!undelivered.delivered && undelivered.deliveredAt == nil)
        #expect(try outreach.store.pendingCount() >= 4, "each change is queued for sync")
    }

    @Test func editsCheckTheSameLimitsAsTheServer() async throws {
        let outreach = try Self.store()
        let year = try outreach.selectedYear()
        #expect(
            await expectKithError {
                try outreach.addContact(to: year.id, firstName: "", lastName: "X", enterpriseName: "Y")
            }?.field == "firstName")
        let ada = try outreach.addContact(
            to: year.id, firstName: "Ada", lastName: "Lovelace", enterpriseName: "Analytical")
        #expect(
            await expectKithError { try outreach.editContact(ada.id, comments: String(repeating: "c", count: 501)) }?
                .field == "comments")
        let edited = try outreach.editContact(ada.id, enterpriseName: "Engines Ltd", comments: "Send the brochure")
        #expect(
            edited.enterpriseName == "Engines Ltd" && edited.comments == "Send the brochure"
                && edited.lastName == "Lovelace")
        try outreach.deleteContact(ada.id)
        #expect(try outreach.contacts(in: year.id).isEmpty)
        #expect(
            await expectKithError { try outreach.setDelivered(ada.id, true) }?.userMessage
                == "That person does not exist (it may have been deleted).")
    }

    @Test func copyingAYearBringsItsPeopleWithDeliveryCleared() async throws {
        let outreach = try Self.store()
        let year = try outreach.addYear("2025")
        let ada = try outreach.addContact(
            to: year.id, firstName: "Ada", lastName: "Lovelace", enterpriseName: "A", comments: "tea")
        try outreach.setDelivered(ada.id, true)
        let next = try outreach.copyYear(year.id, to: "2026")
        let copied = try outreach.contacts(in: next.id)
        #expect(copied.map(\.firstName) == ["Ada"])
        #expect(copied.first?.delivered == false && copied.first?.deliveredAt == nil && copied.first?.comments == "tea")
        #expect(try outreach.contacts(in: year.id).first?.delivered == true, "the old year keeps its deliveries")
        #expect(await expectKithError { try outreach.copyYear(year.id, to: "2026") }?.field == "name")
    }

    @Test func csvExportThenImportRoundTrips() async throws {
        let outreach = try Self.store()
        let year = try outreach.addYear("2025")
        let ada = try outreach.addContact(
            to: year.id, firstName: "Ada", lastName: "Lovelace", enterpriseName: "Analytical, Ltd",
            comments: "said \"yes\"\nfollow up")
        try outreach.setDelivered(ada.id, true)
        try outreach.addContact(to: year.id, firstName: "Zoë", lastName: "Émile", enterpriseName: "Café")
        let csv = try outreach.exportCSV(year: year.id)
        #expect(csv.hasPrefix("First Name,Last Name,Enterprise,Delivered,Delivered At,Comments\r\n"))

        let other = try outreach.addYear("2026")
        #expect(try outreach.importCSV(csv, into: other.id) == OutreachImport(added: 2, updated: 0, unchanged: 0))
        let strip = { (people: [OutreachContact]) in
            people.map {
                [
                    $0.firstName, $0.lastName, $0.enterpriseName, "\($0.delivered)",
                    "\($0.deliveredAt.map(WireCoding.formatTimestamp) ?? "")", $0.comments,
                ]
            }
        }
        #expect(strip(try outreach.contacts(in: other.id)) == strip(try outreach.contacts(in: year.id)))
        #expect(
            try outreach.importCSV(csv, into: other.id) == OutreachImport(added: 0, updated: 0, unchanged: 2),
            "the same file again adds nobody")
        #expect(try outreach.contacts(in: other.id).count == 2)
    }

    @Test func aBadRowIsSkippedAndABadFileImportsNothing() async throws {
        let outreach = try Self.store()
        let year = try outreach.selectedYear()
        let header = OutreachCSV.header.joined(separator: ",")
        let skipped: [(String, String)] = [
            ("\(header)\nAda,Lovelace,A,no,,\n,Turing,B,no,,\n", "Line 3: Enter a first name."),
            ("\(header)\nAlan,Turing,A,maybe,,\n", "Line 2: Delivered must be yes or no."),
            ("\(header)\nAlan,Turing,A,yes,,\n", "Line 2: A delivered person needs Delivered At."),
            ("\(header)\nAlan,Turing,A,no,\n", "Line 2: It has 5 columns; a line needs 6."),
        ]
        for (csv, message) in skipped {
            let done = try outreach.importCSV(csv, into: year.id)
            #expect(done.skipped.map(\.sentence) == [message], "\(csv)")
        }
        // Only Ada, from the first file, was good.
        #expect(try outreach.contacts(in: year.id).map(\.fullName) == ["Ada Lovelace"])
        let refused: [(String, String)] = [
            ("Name,Company\nAda,A\n", "Line 1: the first row must be the header: \(header)"),
            ("\(header)\n\"Ada,Lovelace,A,no,,\n", "Line 2: a quoted field never ends"),
            ("", "Line 1: the file is empty"),
        ]
        for (csv, message) in refused {
            let error = await expectKithError { try outreach.importCSV(csv, into: year.id) }
            #expect(error?.userMessage == message, "\(csv)")
        }
        #expect(try outreach.contacts(in: year.id).count == 1)
        #expect(
            try outreach.importCSV("\u{FEFF}\(header)\r\nGrace,Hopper,A,yes,2026-11-21T10:00:00Z,\r\n", into: year.id)
                .added
                == 1)
        #expect(
            try outreach.contacts(in: year.id).first { $0.lastName == "Hopper" }?.deliveredAt
                == WireCoding.parseTimestamp("2026-11-21T10:00:00.000Z"))
    }

    @Test func aSearchFindsByNameOrEnterpriseIgnoringAccentsAndDelivery() throws {
        let outreach = try Self.store()
        let year = try outreach.selectedYear()
        let ada = try outreach.addContact(
            to: year.id, firstName: "Ada", lastName: "Lovelace", enterpriseName: "Analytical")
        try outreach.addContact(to: year.id, firstName: "Jürgen", lastName: "Müller", enterpriseName: "Bäckerei")
        try outreach.setDelivered(ada.id, true)
        let names = { (filter: OutreachFilter) in try outreach.contacts(in: year.id, matching: filter).map(\.lastName) }
        #expect(try names(OutreachFilter(text: "muller")) == ["Müller"])
        #expect(try names(OutreachFilter(text: "backerei")) == ["Müller"])
        #expect(try names(OutreachFilter(text: "ada analytical")) == ["Lovelace"])
        #expect(try names(OutreachFilter(delivery: .notDelivered)) == ["Müller"])
        #expect(try names(OutreachFilter(text: "ada", delivery: .notDelivered)) == [])
        #expect(try names(OutreachFilter()) == ["Lovelace", "Müller"])
    }

    @Test func manyAreTickedOrDeletedAtOnceAndUndone() throws {
        let outreach = try Self.store()
        let year = try outreach.selectedYear()
        let people = try ["Ada", "Grace", "Alan"].map {
            try outreach.addContact(to: year.id, firstName: $0, lastName: "X", enterpriseName: "E", comments: "c")
        }
        let ticked = try outreach.setDelivered(people.map(\.id), true)
        #expect(ticked.count == 3 && outreach.progress.delivered == 3)
        #expect(try outreach.undo(ticked) == 3)
        #expect(outreach.progress.delivered == 0)
        let deleted = try outreach.deleteContacts([people[0].id, people[1].id])
        #expect(try outreach.contacts(in: year.id).map(\.firstName) == ["Alan"])
        #expect(try outreach.undo(deleted) == 2)
        let back = try outreach.contacts(in: year.id)
        #expect(back.map(\.firstName).sorted() == ["Ada", "Alan", "Grace"] && back.allSatisfy { $0.comments == "c" })
        #expect(outreach.pendingChanges > 0, "each change waits to be synced like any other")
    }
}
