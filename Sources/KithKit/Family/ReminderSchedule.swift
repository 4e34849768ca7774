import Foundation
import KithCore

/// "Every `interval` weeks on `weekdays` at `time`, from `start`": a repeating reminder as a person
/// picks it. It is counted in the family's time zone (`WeeklyRecurrence`).
public struct ReminderSchedule: Sendable, Equatable {
    public var weekdays: Set<Weekday>
    public var interval: Int
    public var start: LocalDate
    public var time: LocalTime

    public init(weekdays: Set<Weekday>, interval: Int = 1, start: LocalDate, time: LocalTime) {
        self.weekdays = weekdays
        self.interval = interval
        self.start = start
        self.time = time
    }

    /// The occurrences in `timeZone`, or why there can be none (no weekday, interval outside 1...52).
    func recurrence(in timeZone: TimeZone) throws -> WeeklyRecurrence {
        switch WeeklyRecurrence.make(
            weekdays: weekdays, interval: interval, start: start, time: time, timeZone: timeZone)
        {
        case .success(let recurrence): return recurrence
        case .failure(let problem): throw KithError.invalid(problem)
        }
    }
}
