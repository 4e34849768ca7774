import Foundation

/// A day of the week, Monday first (ISO 8601 and RFC 5545's `WKST=MO`).
public enum Weekday: Int, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case monday = 0, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The day `date` falls on. 1970-01-01 was a Thursday.
    public init(_ date: LocalDate) {
        self = Weekday(rawValue: ((date.dayNumber % 7) + 7 + 3) % 7) ?? .monday
    }

    /// RFC 5545's two letters: "MO", "TU", …
    public var code: String { ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][rawValue] }

    /// "mon", "monday" or RFC 5545's "MO", in any case.
    public init?(name: String) {
        let lower = name.lowercased()
        guard let found = Weekday.allCases.first(where: { day in
            let full = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][day.rawValue]
            return lower == full || lower == String(full.prefix(3)) || lower == day.code.lowercased()
        }) else { return nil }
        self = found
    }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A time of day on the wall clock, to the minute.
public struct LocalTime: Sendable, Hashable, Codable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// "HH:mm".
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
            let hour = Int(parts[0]), let minute = Int(parts[1])
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    public var description: String { String(format: "%02d:%02d", hour, minute) }
}

/// "Every N weeks on these weekdays at this time, from this day", in a time zone (seed 003): the
/// occurrences of RFC 5545 `FREQ=WEEKLY;INTERVAL=N;BYDAY=…;WKST=MO` with DTSTART at `time` on `start`
/// in `timeZone`. Days are counted on the calendar, never in blocks of 7 × 24 hours, so an occurrence
/// stays at its wall-clock time across daylight saving changes (the original app drifted an hour).
/// As in RFC 5545 implementations (python-dateutil, the test oracle), DTSTART itself is an
/// occurrence only when it falls on one of the weekdays; a wall time that does not exist on a
/// spring-forward day is read with the offset before the change (02:30 becomes 03:30 summer time),
/// and one that happens twice on a fall-back day is its first.
public struct WeeklyRecurrence: Sendable, Hashable {
    public static let intervals: ClosedRange<Int> = 1...52

    public let weekdays: Set<Weekday>
    public let interval: Int
    public let start: LocalDate
    public let time: LocalTime
    public let timeZone: TimeZone

    /// A recurrence, or why not (no weekday, an interval outside 1...52).
    public static func make(weekdays: Set<Weekday>, interval: Int, start: LocalDate, time: LocalTime, timeZone: TimeZone)
        -> Result<WeeklyRecurrence, APIErrorDetail>
    {
        guard !weekdays.isEmpty else {
            return .failure(APIErrorDetail(.validationFailed, "Choose at least one day of the week.", field: "weekdays"))
        }
        guard intervals.contains(interval) else {
            return .failure(APIErrorDetail(.validationFailed, "Repeat every 1 to 52 weeks.", field: "interval"))
        }
        return .success(WeeklyRecurrence(weekdays: weekdays, interval: interval, start: start, time: time, timeZone: timeZone))
    }

    private init(weekdays: Set<Weekday>, interval: Int, start: LocalDate, time: LocalTime, timeZone: TimeZone) {
        self.weekdays = weekdays
        self.interval = interval
        self.start = start
        self.time = time
        self.timeZone = timeZone
    }

    /// `FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;WKST=MO`.
    public var rrule: String {
        "FREQ=WEEKLY;INTERVAL=\(interval);BYDAY=\(weekdays.sorted().map(\.code).joined(separator: ","));WKST=MO"
    }

    /// Whether `date` is an occurrence day.
    public func occurs(on date: LocalDate) -> Bool {
        guard date >= start, weekdays.contains(Weekday(date)) else { return false }
        let weeks = (Self.weekStart(date) - Self.weekStart(start)) / 7
        return weeks % interval == 0
    }

    /// The first `limit` occurrences strictly after `instant` (at most 1,000), in order.
    public func occurrences(after instant: Date, limit: Int) -> [Date] {
        var found: [Date] = []
        let wanted = min(max(limit, 0), 1_000)
        // The local day of `instant`, less one: an occurrence late on the day before can still be
        // after the instant in another offset; the check below is on instants.
        var day = max(start, LocalDate(instant, in: timeZone).adding(days: -1))
        while found.count < wanted {
            if occurs(on: day), let moment = moment(on: day), moment > instant { found.append(moment) }
            guard day < LocalDate.last else { break }
            // Skip whole weeks that are not in the interval, instead of walking their days.
            let next = day.adding(days: 1)
            if Weekday(next) == .monday, interval > 1 {
                let weeks = (Self.weekStart(next) - Self.weekStart(start)) / 7
                let skip = (interval - weeks % interval) % interval
                day = next.adding(days: 7 * skip)
            } else {
                day = next
            }
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
            from: DateComponents(year: date.year, month: date.month, day: date.day, hour: time.hour, minute: time.minute))
    }

    static func weekStart(_ date: LocalDate) -> Int { date.dayNumber - Weekday(date).rawValue }
}
