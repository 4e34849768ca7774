import Foundation

/// When a reminder falls: once, or every N weeks, months or years from its initial day.
enum ReminderRecurrence {
    /// The first day on or after `from` the reminder falls on; nil when a one-time reminder is
    /// past, or the next time is after year 9999. Integer arithmetic, checked: a stored
    /// frequency of any size (older versions accepted 2^63 - 1) answers nil, never traps.
    static func nextDate(_ reminder: ReminderRecord, from: MonicaDate) -> MonicaDate? {
        guard let initial = MonicaDate(ymd: reminder.initialDate) else { return nil }
        if initial >= from { return initial }
        let every = max(1, reminder.frequencyNumber ?? 1)
        switch reminder.frequencyType {
        case "week":
            guard let step = checked(every, times: 7) else { return nil }
            let behind = from.dayNumber - initial.dayNumber
            guard let days = checked(ceilDiv(behind, step), times: step),
                let dayNumber = checked(initial.dayNumber, plus: days)
            else { return nil }
            return MonicaDate(dayNumber: dayNumber)
        case "month":
            return nextByMonths(initial, every: every, from: from)
        case "year":
            return checked(every, times: 12).flatMap { nextByMonths(initial, every: $0, from: from) }
        default:
            return nil
        }
    }

    /// Every `every` months from `initial` (keeping its day, or the month's last when shorter).
    private static func nextByMonths(_ initial: MonicaDate, every: Int64, from: MonicaDate) -> MonicaDate? {
        // Counted from the start each time, so the 31st falls on each month's last day.
        let behind = max(0, from.monthNumber - initial.monthNumber)
        var steps = ceilDiv(behind, every)
        for _ in 0..<2 {
            guard let months = checked(steps, times: every), let monthNumber = checked(initial.monthNumber, plus: months),
                let date = MonicaDate(monthNumber: monthNumber, day: initial.day)
            else { return nil }
            if date >= from { return date }
            steps += 1
        }
        return nil
    }

    /// `value / divisor` rounded up, for non-negative values, without the overflow of `value + divisor - 1`.
    private static func ceilDiv(_ value: Int64, _ divisor: Int64) -> Int64 {
        value / divisor + (value % divisor == 0 ? 0 : 1)
    }

    private static func checked(_ value: Int64, times factor: Int64) -> Int64? {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        return overflow ? nil : product
    }

    private static func checked(_ value: Int64, plus other: Int64) -> Int64? {
        let (sum, overflow) = value.addingReportingOverflow(other)
        return overflow ? nil : sum
    }
}
