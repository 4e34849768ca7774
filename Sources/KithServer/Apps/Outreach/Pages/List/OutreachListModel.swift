import Foundation
import KithCore

/// The Outreach list (outreach.mustache): the year's people in order, the years for the selector,
/// progress; after a refused form, what it had typed (which opens it again) and why.
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
    let hasPeople: Bool
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

    init(book: OutreachBook, year: OutreachYear, zone: TimeZone?) {
        let people = book.people(in: year.id)
        self.year = Year(year)
        years = book.years.map { YearChoice(id: $0.id.lowercased, name: $0.name, selected: $0.id == year.id) }
        otherYears = book.years.filter { $0.id != year.id }.map(Year.init)
        hasManyYears = book.years.count > 1
        peopleRows = OutreachRowsHTML.render(people, zone: zone)
        hasPeople = !people.isEmpty
        progress = OutreachProgress(of: people)
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
