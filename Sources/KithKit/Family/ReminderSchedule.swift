import Foundation
import KithCore

/// "Every `interval` days, weeks or months, on these days, at `time`, from `start`": a repeating
/// reminder as a person picks it (`RepeatPattern`: daily, weekly on weekdays, monthly on a day
/// or on a weekday's place such as the second Tuesday). It is counted in the family's time zone
/// (`Recurrence`).
public struct ReminderSchedule: Sendable, Equatable {
    public var pattern: RepeatPattern
    public var interval: Int
    public var start: LocalDate
    public var time: LocalTime

    public init(_ pattern: RepeatPattern, interval: Int = 1, start: LocalDate, time: LocalTime) {
        self.pattern = pattern
        self.interval = interval
        self.start = start
        self.time = time
    }

    /// Weekly on `weekdays`.
    public init(weekdays: Set<Weekday>, interval: Int = 1, start: LocalDate, time: LocalTime) {
        self.init(.weekly(weekdays), interval: interval, start: start, time: time)
    }

    /// The occurrences in `timeZone`, or why there can be none (no weekday, a day of the month
    /// outside 1-31, an interval outside its frequency's range).
    func recurrence(in timeZone: TimeZone) throws -> Recurrence {
        switch Recurrence.make(pattern, interval: interval, start: start, time: time, timeZone: timeZone) {
        case .success(let recurrence): return recurrence
        case .failure(let problem): throw KithError.invalid(FamilyRules.onReminderFields(problem))
        }
    }
}
