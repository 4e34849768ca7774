import Foundation
import KithCore

/// The Outreach list (outreach.mustache): the year's people in order (those the search shows), the
/// years for the selector, progress; after a refused form, what it had typed (which opens it
/// again) and why; after a change of many people, its undo; after an import, the lines it skipped.
struct OutreachListModel: OutreachPageModel {
    static let template = "outreach"

    let year: Year
    /// Every year for the selector, this one selected.
    let years: [YearChoice]
    /// The years to copy people from besides this one.
    let otherYears: [Year]
    /// Also whether the year may be deleted: the last one stays (OutreachRules.lastYear).
    let hasManyYears: Bool
    /// The people table's rows, written by `OutreachRowsHTML` (a Mustache section is too slow at
    /// 5,000 people).
    let peopleRows: String
    /// Whether the year has anyone (shown or not).
    let hasPeople: Bool
    /// Whether the search shows anyone.
    let hasShown: Bool
    let search: Search
    let progress: OutreachProgress
    let limits = OutreachLimits.declared
    var notice: String?
    var error: String?
    /// The address the page stands for when a form's answer showed it (outreach.js puts it in the
    /// address bar).
    var canonicalPath: String?
    /// Someone with the same name and enterprise is in the year already: add anyway?
    var duplicate: Duplicate?
    var newPerson: OutreachPersonForm?
    var newPersonErrors: OutreachPersonErrors?
    var newYear: YearName?
    var renameYear: YearName?
    var importForm: ImportForm?
    var importReport: ImportReport?
    /// What takes back the change of many people just made.
    var undo: Undo?

    init(book: OutreachBook, year: OutreachYear, filter: OutreachFilter = OutreachFilter(), zone: TimeZone?) {
        let people = book.people(in: year.id)
        let shown = filter.shown(people)
        self.year = Year(year)
        years = book.years.map { YearChoice(id: $0.id.lowercased, name: $0.name, selected: $0.id == year.id) }
        otherYears = book.years.filter { $0.id != year.id }.map(Year.init)
        hasManyYears = book.years.count > 1
        peopleRows = OutreachRowsHTML.render(shown, zone: zone)
        hasPeople = !people.isEmpty
        hasShown = !shown.isEmpty
        search = Search(filter, shown: shown.count, total: people.count)
        progress = OutreachProgress(of: people)
    }

    /// The search over the list: what was typed, which people, and what it found.
    struct Search {
        let text: String
        let choices: [Choice]
        let isActive: Bool
        /// "12 of 340 shown", while searching.
        let shownText: String
        /// The search as the list's address carries it ("&q=ada&show=delivered"; "" when none).
        let query: String

        struct Choice {
            let value: String
            let label: String
            let selected: Bool
        }

        init(_ filter: OutreachFilter, shown: Int, total: Int) {
            text = filter.text
            let labels: [OutreachFilter.Delivery: String] = [
                .all: "Everyone", .delivered: "Delivered", .notDelivered: "Not delivered yet",
            ]
            choices = OutreachFilter.Delivery.allCases.map {
                Choice(value: $0.rawValue, label: labels[$0] ?? $0.rawValue, selected: $0 == filter.delivery)
            }
            isActive = !filter.isEmpty
            shownText = "\(shown) of \(total) shown"
            query = OutreachPages.searchQuery(filter)
        }
    }

    struct ImportReport {
        /// "Line 4: Enter a last name.", in the file's order.
        let skipped: [String]
        /// "And 12 more lines." when the address carried only the first ones.
        let more: String?
    }

    struct Undo {
        /// The change as `OutreachUndo` JSON, sent back by the Undo button.
        let payload: String
    }

    struct Year {
        let id: String
        let name: String

        init(_ year: OutreachYear) {
            id = year.id.lowercased
            name = year.name
        }
    }

    struct YearChoice {
        let id: String
        let name: String
        let selected: Bool
    }

    struct Duplicate {
        let question: String
        /// The id of the person already there.
        let existing: String
    }

    struct YearName {
        let name: String
    }

    struct ImportForm {
        let csv: String
    }
}
