import Foundation
import KithCore

/// What the Outreach templates show, as Mustache values: the year's people in order, the years
/// for the selector, progress, and each person's delivery time and comment preview.
struct OutreachListView {
    let book: OutreachBook
    let year: OutreachYear
    /// The reader's time zone (nil before the browser told it: times are then UTC and say so).
    let zone: TimeZone?

    /// How much of a comment the list shows; the person's page shows all of it.
    static let previewLength = 60

    var values: [String: Any] {
        let people = book.people(in: year.id)
        let progress = OutreachProgress(of: people)
        return [
            "year": ["id": year.id.lowercased, "name": year.name],
            "years": book.years.map { other in
                ["id": other.id.lowercased, "name": other.name, "selected": other.id == year.id] as [String: Any]
            },
            "otherYears": book.years.filter { $0.id != year.id }.map { ["id": $0.id.lowercased, "name": $0.name] },
            // Also whether the year may be deleted: the last one stays (OutreachRules.lastYear).
            "hasManyYears": book.years.count > 1,
            "peopleRows": OutreachRowsHTML.render(people, zone: zone),
            "hasPeople": !people.isEmpty,
            "progress": [
                "delivered": progress.delivered, "total": progress.total,
                "percent": Int((progress.fraction * 100).rounded()),
            ],
        ]
    }

    static func row(_ person: OutreachContact, zone: TimeZone?) -> [String: Any] {
        var row: [String: Any] = [
            "id": person.id.lowercased, "firstName": person.firstName, "lastName": person.lastName,
            "fullName": person.fullName, "enterpriseName": person.enterpriseName, "delivered": person.delivered,
        ]
        if let time = person.deliveredAt {
            row["deliveredAt"] = WireCoding.formatTimestamp(time)
            row["deliveredAtText"] = WebTime.text(time, in: zone)
        }
        if !person.comments.isEmpty {
            row["commentPreview"] = preview(person.comments)
        }
        return row
    }

    /// A person's page: the whole record, comments in full.
    static func person(_ person: OutreachContact, zone: TimeZone?) -> [String: Any] {
        var values = row(person, zone: zone)
        values["comments"] = person.comments
        values["yearId"] = person.yearId.lowercased
        values["form"] = [
            "firstName": person.firstName, "lastName": person.lastName, "enterpriseName": person.enterpriseName,
            "comments": person.comments,
        ]
        return values
    }

    /// The first line of a comment, cut at a word near `previewLength` characters.
    static func preview(_ comments: String) -> String {
        let firstLine = comments.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let hasMore = firstLine.count < comments.trimmedWhitespace.count
        guard firstLine.count > previewLength else { return hasMore ? firstLine + " …" : firstLine }
        var cut = String(firstLine.prefix(previewLength))
        if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > previewLength / 2 {
            cut = String(cut[..<space])
        }
        return cut + " …"
    }
}
