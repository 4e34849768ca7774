import Foundation
import KithCore

/// Times and repeats as the Family pages write them, always on the family's wall clock (a
/// reminder is due at 07:30 in the family's zone, wherever the reader is).
enum FamilyFormat {
    static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    private static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// The day and wall-clock time of `moment` in `zone`.
    static func local(_ moment: Date, in zone: TimeZone) -> (date: LocalDate, time: LocalTime) {
        let parts = calendar(zone).dateComponents([.hour, .minute], from: moment)
        return (
            LocalDate(moment, in: zone),
            LocalTime(hour: parts.hour ?? 0, minute: parts.minute ?? 0) ?? LocalTime("00:00")!
        )
    }

    /// "Today, 07:30", "Tomorrow, 07:30", "Tue 24 Nov, 07:30", with the year when it is not this year's.
    static func moment(_ moment: Date, in zone: TimeZone, today: LocalDate) -> String {
        let (date, time) = local(moment, in: zone)
        return "\(day(date, today: today)), \(time)"
    }

    /// "05:03 today", "05:03 tomorrow", "05:03 on Tue 24 Nov": for the middle of a sentence.
    static func timeAndDay(_ moment: Date, in zone: TimeZone, today: LocalDate) -> String {
        let (date, time) = local(moment, in: zone)
        let day = day(date, today: today)
        return abs(date.dayNumber - today.dayNumber) <= 1 ? "\(time) \(day.lowercased())" : "\(time) on \(day)"
    }

    /// "Today", "Tomorrow", "Yesterday", "Tue 24 Nov" or "Tue 24 Nov 2027".
    static func day(_ date: LocalDate, today: LocalDate) -> String {
        switch date.dayNumber - today.dayNumber {
        case 0: return "Today"
        case 1: return "Tomorrow"
        case -1: return "Yesterday"
        default: return NutritionFormat.medium(date) + (date.year == today.year ? "" : " \(date.year)")
        }
    }

    /// The value of a `datetime-local` field: "2026-11-24T07:30".
    static func fieldValue(_ moment: Date, in zone: TimeZone) -> String {
        let (date, time) = local(moment, in: zone)
        return "\(date)T\(time)"
    }

    /// A `datetime-local` field's "2026-11-24T07:30" (seconds allowed) read on the family's clock.
    static func parseField(_ text: String, in zone: TimeZone) -> Date? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "T")
        guard parts.count == 2, let date = LocalDate(String(parts[0])), let time = LocalTime(String(parts[1].prefix(5)))
        else {
            return nil
        }
        return calendar(zone).date(
            from: DateComponents(
                year: date.year, month: date.month, day: date.day, hour: time.hour, minute: time.minute))
    }

    /// A latitude or longitude with six decimals (about 10 cm), as a form field and a map link take it.
    static func coordinate(_ degrees: Double) -> String { String(format: "%.6f", degrees) }

    /// Metres as a person reads them: "12", "2.5".
    static func metres(_ value: Double) -> String {
        value.rounded() == value ? String(Int64(value)) : String(format: "%.1f", value)
    }
}
