import Foundation
import KithCore

/// The reminder list's values: the filters as the reader chose them (`?status=&assignee=&from=&to=`)
/// and each reminder they let through, due first, as a row the templates show.
struct ReminderListView {
    let snapshot: FamilySnapshot
    let today: LocalDate

    /// The filter a query asks for: pending ones by default; `from`/`to` are days in the family's
    /// zone, both included.
    static func filter(_ query: (String) -> String?, snapshot: FamilySnapshot) -> (ReminderFilter, [String: Any]) {
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
        let values: [String: Any] = [
            "statuses": [("pending", "Pending"), ("completed", "Completed"), ("all", "All")].map { value, label in
                ["value": value, "label": label, "selected": value == statusChoice] as [String: Any]
            },
            "assignees":
                ([("anyone", "Anyone"), ("me", "Me"), ("others", "Others")]
                + snapshot.family.members.map { ($0.userId.lowercased(), $0.displayName) }).map { value, label in
                    ["value": value, "label": label, "selected": value == assigneeChoice] as [String: Any]
                },
            "from": from?.description ?? "", "to": to?.description ?? "",
            "isFiltered": statusChoice != "pending" || assigneeChoice != "anyone" || from != nil || to != nil,
        ]
        return (filter, values)
    }

    static func midnight(_ date: LocalDate, in zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day))
    }

    func rows(_ filter: ReminderFilter) -> [[String: Any]] {
        snapshot.book.reminders(filter, viewer: snapshot.me).map(row)
    }

    /// One reminder as the list and its own page show it.
    func row(_ reminder: FamilyReminder) -> [String: Any] {
        let zone = snapshot.timeZone
        let done = reminder.checklist.filter(\.done).count
        var row: [String: Any] = [
            "id": reminder.id.lowercased,
            "title": reminder.title,
            "due": FamilyFormat.moment(reminder.dueAt, in: zone, today: today),
            "dueISO": WireCoding.formatTimestamp(reminder.dueAt),
            "assignee": snapshot.name(of: reminder.assigneeId),
            "isMine": reminder.assigneeId == snapshot.me,
            "creator": snapshot.name(of: reminder.creatorId),
            "isCompleted": reminder.status == .completed,
            "isOverdue": reminder.status == .pending && LocalDate(reminder.dueAt, in: zone) < today,
            "status": reminder.status == .completed ? "Completed" : "Pending",
            "items": reminder.checklist.map { item in
                ["id": item.id.lowercased, "text": item.text, "done": item.done] as [String: Any]
            },
            "hasItems": !reminder.checklist.isEmpty,
            "progress": "\(done) of \(reminder.checklist.count) done",
            "mayComplete": snapshot.mayComplete(reminder),
            "mayChange": snapshot.mayChange(reminder),
            "mayDelete": snapshot.mayDelete(reminder),
        ]
        if let recurrence = snapshot.recurrences[reminder.id] { row["repeat"] = FamilyFormat.repeatSummary(recurrence) }
        if let by = reminder.completedBy, let at = reminder.completedAt {
            let when = FamilyFormat.moment(at, in: zone, today: today)
            row["completion"] =
                reminder.status == .completed
                ? "Completed by \(snapshot.name(of: by)) · \(when)" : "Last done by \(snapshot.name(of: by)) · \(when)"
        }
        return row
    }
}
