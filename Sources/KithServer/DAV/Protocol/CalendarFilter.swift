import Foundation
import KithCore

/// A `calendar-query` filter (RFC 4791 §9.7) on a calendar of tasks: `VCALENDAR`, then `VTODO`
/// with a time range (§9.9: by DTSTART and DUE, a repeating task by its next occurrence in the
/// range), property filters with text matches, or `is-not-defined`.
struct CalendarFilter {
    let element: DAVXMLElement

    init(_ element: DAVXMLElement) { self.element = element }

    func matches(_ body: String) throws(DAVError) -> Bool {
        guard let calendar = element.child(DAVName.cal("comp-filter")) else { return true }
        guard calendar.attributes["name"]?.uppercased() == "VCALENDAR" else { return false }
        let components = calendar.children(DAVName.cal("comp-filter"))
        guard !components.isEmpty else { return true }
        guard let document = try? CalendarDocument.parse(body), let task = document.tasks.first,
            let lines = try? ContentLines.parse(body)
        else { return false }
        for component in components {
            let name = component.attributes["name"]?.uppercased() ?? ""
            if component.child(DAVName.cal("is-not-defined")) != nil {
                if name == "VTODO" { return false }
                continue
            }
            guard name == "VTODO" else { return false }
            if let range = component.child(DAVName.cal("time-range")), try !Self.overlaps(task, range) { return false }
            for filter in component.children(DAVName.cal("prop-filter")) {
                guard try Self.propFilter(filter, Self.taskLines(lines)) else { return false }
            }
        }
        return true
    }

    /// The lines of the VTODO itself (not of its alarms or the time zone).
    private static func taskLines(_ lines: [ContentLine]) -> [ContentLine] {
        var depth = 0
        var inTask = false
        var found: [ContentLine] = []
        for line in lines {
            if line.name == "BEGIN" {
                depth += 1
                if line.value.uppercased() == "VTODO" { inTask = true }
            } else if line.name == "END" {
                depth -= 1
                if line.value.uppercased() == "VTODO" { inTask = false }
            } else if inTask && depth == 2 {
                found.append(line)
            }
        }
        return found
    }

    private static func propFilter(_ filter: DAVXMLElement, _ lines: [ContentLine]) throws(DAVError) -> Bool {
        let name = (filter.attributes["name"] ?? "").uppercased()
        let matching = lines.filter { $0.name == name }
        if filter.child(DAVName.cal("is-not-defined")) != nil { return matching.isEmpty }
        guard let match = filter.child(DAVName.cal("text-match")) else { return !matching.isEmpty }
        let text = try TextMatch(match)
        return matching.contains { text.matches(ContentLines.unescapeText($0.value)) }
    }

    /// RFC 4791 §9.9's table for VTODO, with a repeat's next occurrence in the range.
    private static func overlaps(_ task: CalendarTask, _ range: DAVXMLElement) throws(DAVError) -> Bool {
        let start = try range.attributes["start"].map(instant) ?? .distantPast
        let end = try range.attributes["end"].map(instant) ?? .distantFuture
        // Each instance as (start, due): the task itself, and for a repeat its first
        // occurrence in the range, which starts and is due at its own time.
        var instances: [(begin: Date?, due: Date?)] = [(task.start?.date, task.due?.date)]
        if let due = task.due, let zone = due.timeZone,
            let recurrence = task.recurrence?.recurrence(first: due.date, in: zone),
            let next = recurrence.next(after: max(start, due.date).addingTimeInterval(-1))
        {
            instances.append((task.start == nil ? nil : next, next))
        }
        return instances.contains { instance in
            switch (instance.begin, instance.due) {
            case (let begin?, let due?): (start < due || start <= begin) && (end > begin || end >= due)
            case (let begin?, nil): start <= begin && end > begin
            case (nil, let due?): start < due && end >= due
            case (nil, nil):
                task.completed.map { start <= $0 && end >= $0 } ?? true
            }
        }
    }

    /// A time range's bound: a UTC date-time, `20261206T000000Z`.
    private static func instant(_ text: String) throws(DAVError) -> Date {
        let digits = text.filter(\.isNumber)
        guard text.hasSuffix("Z"), digits.count == 14, let year = Int(digits.prefix(4)),
            let month = Int(digits.dropFirst(4).prefix(2)), let day = Int(digits.dropFirst(6).prefix(2)),
            let hour = Int(digits.dropFirst(8).prefix(2)), let minute = Int(digits.dropFirst(10).prefix(2)),
            let second = Int(digits.dropFirst(12).prefix(2))
        else {
            throw DAVError(
                .badRequest, "A time range is given in UTC, as 20261206T000000Z; \(text) is not.",
                precondition: DAVName.cal("valid-filter"))
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        guard
            let date = calendar.date(
                from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
        else {
            throw DAVError(
                .badRequest, "The time range \(text) is not a date.", precondition: DAVName.cal("valid-filter"))
        }
        return date
    }
}
