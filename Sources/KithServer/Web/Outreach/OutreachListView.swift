import Foundation
import KithCore

/// What the Outreach templates show, as Mustache values: the year's people in order, the years
/// for the selector, progress, and each person's delivery time and comment preview.
struct OutreachListView {
    let book: OutreachBook
    let year: OutreachYear

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
            "hasManyYears": book.years.count > 1,
            "peopleRows": OutreachRowsHTML.render(people),
            "hasPeople": !people.isEmpty,
            "progress": [
                "delivered": progress.delivered, "total": progress.total,
                "percent": Int((progress.fraction * 100).rounded()),
            ],
        ]
    }

    static func row(_ person: OutreachContact) -> [String: Any] {
        var row: [String: Any] = [
            "id": person.id.lowercased, "firstName": person.firstName, "lastName": person.lastName,
            "fullName": person.fullName, "enterpriseName": person.enterpriseName, "delivered": person.delivered,
        ]
        if let time = person.deliveredAt {
            row["deliveredAt"] = WireCoding.formatTimestamp(time)
            row["deliveredAtText"] = timeText(time)
        }
        if !person.comments.isEmpty {
            row["commentPreview"] = preview(person.comments)
        }
        return row
    }

    /// A person's page: the whole record, comments in full.
    static func person(_ person: OutreachContact) -> [String: Any] {
        var values = row(person)
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
        let hasMore = firstLine.count < comments.trimmingCharacters(in: .whitespacesAndNewlines).count
        guard firstLine.count > previewLength else { return hasMore ? firstLine + " …" : firstLine }
        var cut = String(firstLine.prefix(previewLength))
        if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > previewLength / 2 {
            cut = String(cut[..<space])
        }
        return cut + " …"
    }

    /// Shown until the page's script replaces it with the reader's local time: "21 Nov 2026, 14:05 UTC".
    static func timeText(_ time: Date) -> String {
        let parts = utc.dateComponents([.year, .month, .day, .hour, .minute], from: time)
        let month = monthNames[(parts.month ?? 1) - 1]
        let clock = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        return "\(parts.day ?? 1) \(month) \(parts.year ?? 1970), \(clock) UTC"
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
