import Foundation

/// A reminder's repeat in a time zone (docs/family.md "Recurrence"): the occurrences of RFC 5545
/// `FREQ=DAILY`, `FREQ=WEEKLY;BYDAY=…;WKST=MO` or `FREQ=MONTHLY` with `BYMONTHDAY=15` or `BYDAY=2TU`,
/// every `interval` days, weeks or months, with DTSTART at `time` on `start` in `timeZone`. Days are
/// counted on the calendar, never in blocks of 24 hours, so an occurrence stays at its wall-clock
/// time across daylight saving changes (the original app drifted an hour). As in RFC 5545
/// implementations (python-dateutil, the test oracle), DTSTART itself is an occurrence only when
/// it matches the pattern, and a month without the day (the 31st in April, a fifth Monday) has
/// none; a wall time that does not exist on a spring-forward day is read with the offset before
/// the change (02:30 becomes 03:30 summer time), and one that happens twice on a fall-back day is
/// its first.
public struct Recurrence: Sendable, Hashable {
    public let pattern: RepeatPattern
    public let interval: Int
    public let start: LocalDate
    public let time: LocalTime
    public let timeZone: TimeZone

    /// A recurrence, or why not: no weekday, a day of the month outside 1-31, an interval outside
    /// its frequency's (`RepeatFrequency.intervals`). The problem's field is `weekdays`,
    /// `monthDay` or `interval`.
    public static func make(
        _ pattern: RepeatPattern, interval: Int, start: LocalDate, time: LocalTime, timeZone: TimeZone
    ) -> Result<Recurrence, APIErrorDetail> {
        switch pattern {
        case .weekly(let days) where days.isEmpty:
            return .failure(
                APIErrorDetail(.validationFailed, "Choose at least one day of the week.", field: "weekdays"))
        case .monthlyOnDay(let day) where !RepeatPattern.monthDays.contains(day):
            return .failure(
                APIErrorDetail(.validationFailed, "Choose a day of the month from 1 to 31.", field: "monthDay"))
        default: break
        }
        let frequency = pattern.frequency
        guard frequency.intervals.contains(interval) else {
            let range = frequency.intervals
            return .failure(
                APIErrorDetail(
                    .validationFailed, "Repeat every \(range.lowerBound) to \(range.upperBound) \(frequency.unit)s.",
                    field: "interval"))
        }
        return .success(Recurrence(pattern: pattern, interval: interval, start: start, time: time, timeZone: timeZone))
    }

    /// A weekly recurrence (`make` with `.weekly(weekdays)`).
    public static func weekly(
        _ weekdays: Set<Weekday>, interval: Int, start: LocalDate, time: LocalTime, timeZone: TimeZone
    ) -> Result<Recurrence, APIErrorDetail> {
        make(.weekly(weekdays), interval: interval, start: start, time: time, timeZone: timeZone)
    }

    private init(pattern: RepeatPattern, interval: Int, start: LocalDate, time: LocalTime, timeZone: TimeZone) {
        self.pattern = pattern
        self.interval = interval
        self.start = start
        self.time = time
        self.timeZone = timeZone
    }

    public var frequency: RepeatFrequency { pattern.frequency }

    /// The weekdays of a weekly recurrence; empty for any other.
    public var weekdays: Set<Weekday> {
        if case .weekly(let days) = pattern { return days }
        return []
    }

    /// `FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;WKST=MO`, `FREQ=DAILY;INTERVAL=3`,
    /// `FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=15`, `FREQ=MONTHLY;INTERVAL=1;BYDAY=-1FR`.
    public var rrule: String {
        let head = "FREQ=\(frequency.code);INTERVAL=\(interval)"
        switch pattern {
        case .daily: return head
        case .weekly(let days): return head + ";BYDAY=\(days.sorted().map(\.code).joined(separator: ","));WKST=MO"
        case .monthlyOnDay(let day): return head + ";BYMONTHDAY=\(day)"
        case .monthlyOnWeekday(let place): return head + ";BYDAY=\(place.code)"
        }
    }

    /// Whether `date` is an occurrence day.
    public func occurs(on date: LocalDate) -> Bool { firstDay(onOrAfter: date) == date }

    /// The first `limit` occurrences strictly after `instant` (at most 1,000), in order.
    public func occurrences(after instant: Date, limit: Int) -> [Date] {
        var found: [Date] = []
        let wanted = min(max(limit, 0), 1_000)
        // The local day of `instant`, less one: an occurrence late on the day before can still be
        // after the instant in another offset; the check below is on instants.
        var day = firstDay(onOrAfter: LocalDate(instant, in: timeZone).adding(days: -1))
        while found.count < wanted, let occurrence = day {
            if let moment = moment(on: occurrence), moment > instant { found.append(moment) }
            guard occurrence < LocalDate.last else { break }
            day = firstDay(onOrAfter: occurrence.adding(days: 1))
        }
        return found
    }

    /// The first occurrence strictly after `instant`, nil when there is none before year 10000.
    public func next(after instant: Date) -> Date? { occurrences(after: instant, limit: 1).first }

    /// The instant of `time` on `date` in the time zone.
    public func moment(on date: LocalDate) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(
            from: DateComponents(
                year: date.year, month: date.month, day: date.day, hour: time.hour, minute: time.minute))
    }

    /// The first occurrence day on or after `date` (and on or after `start`), nil when there is
    /// none before year 10000.
    func firstDay(onOrAfter date: LocalDate) -> LocalDate? {
        let from = max(date, start)
        switch pattern {
        case .daily:
            let steps = (from.dayNumber - start.dayNumber + interval - 1) / interval
            return LocalDate(dayNumber: start.dayNumber + steps * interval)
        case .weekly(let days):
            return firstWeeklyDay(onOrAfter: from, on: days)
        case .monthlyOnDay(let day):
            return firstMonthlyDay(onOrAfter: from) { year, month in LocalDate(year: year, month: month, day: day) }
        case .monthlyOnWeekday(let place):
            return firstMonthlyDay(onOrAfter: from) { year, month in place.day(inMonth: month, year: year) }
        }
    }

    private func firstWeeklyDay(onOrAfter from: LocalDate, on days: Set<Weekday>) -> LocalDate? {
        guard !days.isEmpty else { return nil }
        var day = from
        while true {
            let weeks = (Self.weekStart(day) - Self.weekStart(start)) / 7
            if weeks % interval != 0 {
                // Skip whole weeks that are not in the interval, to the Monday of the next one.
                let skip = interval - weeks % interval
                guard let monday = LocalDate(dayNumber: Self.weekStart(day) + 7 * skip) else { return nil }
                day = monday
                continue
            }
            if days.contains(Weekday(day)) { return day }
            guard day < LocalDate.last else { return nil }
            day = day.adding(days: 1)
        }
    }

    /// The first day on or after `from` that `day(year, month)` gives in one of the interval's
    /// months (counted from `start`'s month); months without such a day are passed over.
    private func firstMonthlyDay(onOrAfter from: LocalDate, day: (Int, Int) -> LocalDate?) -> LocalDate? {
        let first = Self.monthNumber(start)
        let behind = Self.monthNumber(from) - first
        // `from`'s own month when the interval picks it (its day may still be ahead), else the next it picks.
        var month = first + (behind + interval - 1) / interval * interval
        while month <= Self.monthNumber(LocalDate.last) {
            if let found = day(month / 12, month % 12 + 1), found >= from { return found }
            month += interval
        }
        return nil
    }

    /// Months since year 0: the count monthly intervals step through.
    static func monthNumber(_ date: LocalDate) -> Int { date.year * 12 + date.month - 1 }

    static func weekStart(_ date: LocalDate) -> Int { date.dayNumber - Weekday(date).rawValue }
}
