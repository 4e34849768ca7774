import Foundation
import KithCore

/// The reminder list: the filters as the reader chose them (`?status=&assignee=&from=&to=`) and
/// each reminder they let through, due first.
struct ReminderListView {
    let snapshot: FamilySnapshot
    let now: Date
    let today: LocalDate

    /// The filter a query asks for: pending ones by default; `from`/`to` are days in the family's
    /// zone, both included.
    static func filter(
        _ query: (String) -> String?, snapshot: FamilySnapshot
    ) -> (ReminderFilter, ReminderFilterChoices) {
        var filter = ReminderFilter()
        let status = query("status") ?? "pending"
        filter.status = FamilyReminder.Status(rawValue: status)
        let assignee = query("assignee") ?? "anyone"
        switch assignee {
        case "me": filter.assignee = .me
        case "others": filter.assignee = .others
        case "anyone", "": filter.assignee = .anyone
        default: filter.assignee = .member(assignee)
        }
        let zone = snapshot.timeZone
        let from = query("from").flatMap(LocalDate.init)
        let to = query("to").flatMap(LocalDate.init)
        filter.from = from.flatMap { Self.midnight($0, in: zone) }
        filter.until = to.flatMap { Self.midnight($0.adding(days: 1), in: zone) }
        let statusChoice = filter.status?.rawValue ?? "all"
        let assigneeChoice = assignee.isEmpty ? "anyone" : assignee
        let choices = ReminderFilterChoices(
            statuses: [("pending", "Pending"), ("completed", "Completed"), ("all", "All")].map { value, label in
                .init(value: value, label: label, selected: value == statusChoice)
            },
            assignees: ([("anyone", "Anyone"), ("me", "Me"), ("others", "Others")]
                + snapshot.family.members.map { ($0.userId.lowercased(), $0.displayName) }).map { value, label in
                    .init(value: value, label: label, selected: value == assigneeChoice)
                },
            from: from?.description ?? "", to: to?.description ?? "",
            isFiltered: statusChoice != "pending" || assigneeChoice != "anyone" || from != nil || to != nil)
        return (filter, choices)
    }

    static func midnight(_ date: LocalDate, in zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day))
    }

    func rows(_ filter: ReminderFilter) -> [ReminderRow] {
        snapshot.book.reminders(filter, viewer: snapshot.me).map {
            ReminderRow($0, snapshot, now: now, today: today, fully: false)
        }
    }
}

/// The list's filters as the reader chose them.
struct ReminderFilterChoices {
    let statuses: [Choice]
    let assignees: [Choice]
    /// The first and last days, `yyyy-MM-dd` ("" when open).
    let from: String
    let to: String
    let isFiltered: Bool

    struct Choice {
        let value: String
        let label: String
        let selected: Bool
    }
}
