import ArgumentParser
import Foundation
import KithCore
import KithKit

/// The values `kith reminders` takes on its command line, read the way a person types them.
enum ReminderInput {
    /// An ISO 8601 instant (`2026-11-25T07:30:00Z`, `…+01:00`), or a wall time without an offset
    /// (`2026-11-25T07:30`, `2026-11-25 07:30`) read in the family's time zone.
    static func due(_ text: String, in zone: TimeZone) throws -> Date {
        if let instant = WireCoding.parseTimestamp(text) { return instant }
        let parts = text.split(whereSeparator: { $0 == "T" || $0 == " " }).map(String.init)
        if parts.count == 2, let day = LocalDate(parts[0]), let time = LocalTime(String(parts[1].prefix(5))),
            parts[1].count == 5 || (parts[1].count == 8 && parts[1].dropFirst(5).first == ":"),
            let instant = moment(day, hour: time.hour, minute: time.minute, in: zone)
        {
            return instant
        }
        throw KithError.invalid(
            APIErrorDetail(
                .validationFailed,
                "\(text) is not a time: use ISO 8601 like 2026-11-25T07:30:00Z, or 2026-11-25T07:30 in the family's time zone.",
                field: ReminderFields.dueAt))
    }

    /// The first moment of `day` in `zone`.
    static func start(of day: LocalDate, in zone: TimeZone) -> Date? { moment(day, hour: 0, minute: 0, in: zone) }

    /// "mon,wed" (or "MO,WE", "monday,wednesday").
    static func weekdays(_ text: String) throws -> Set<Weekday> {
        let days = text.split(separator: ",").map { Weekday(name: $0.trimmingCharacters(in: .whitespaces)) }
        guard !days.isEmpty, !days.contains(where: { $0 == nil }) else {
            throw ValidationError("--on takes days of the week separated by commas, like mon,wed.")
        }
        return Set(days.compactMap { $0 })
    }

    static func date(_ text: String, option: String) throws -> LocalDate {
        guard let date = LocalDate(text) else {
            throw ValidationError("\(option) takes a date as yyyy-MM-dd, got \(text).")
        }
        return date
    }

    static func time(_ text: String) throws -> LocalTime {
        guard let time = LocalTime(text) else {
            throw ValidationError("--at takes a time of day as HH:mm, got \(text).")
        }
        return time
    }

    /// ITEM: a line's number (from 1) or its text (any case).
    static func item(_ text: String, of reminder: FamilyReminder) throws -> ChecklistItem {
        let items = reminder.checklist
        if let number = Int(text), items.indices.contains(number - 1) { return items[number - 1] }
        let matches = items.filter {
            $0.text.caseInsensitiveCompare(text.trimmingCharacters(in: .whitespaces)) == .orderedSame
        }
        if matches.count == 1, let match = matches.first { return match }
        let listed = items.enumerated().map { "\($0.offset + 1). \($0.element.text)" }.joined(separator: ", ")
        let known = items.isEmpty ? "\"\(reminder.title)\" has no checklist." : "Its items: \(listed)."
        let reason =
            matches.isEmpty ? "No item \"\(text)\"." : "\(matches.count) items read \"\(text)\": give its number."
        throw KithError.invalid(
            APIErrorDetail(code: matches.isEmpty ? "not_found" : "ambiguous_item", message: "\(reason) \(known)"))
    }

    private static func moment(_ day: LocalDate, hour: Int, minute: Int, in zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(
            from: DateComponents(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute))
    }
}
