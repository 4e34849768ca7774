import Foundation

/// How often a repeat comes round: RFC 5545's FREQ, as far as Kith repeats.
public enum RepeatFrequency: String, Sendable, Hashable, Codable, CaseIterable {
    case daily, weekly, monthly

    /// How many days, weeks or months apart occurrences may be: up to a year of days, a year of
    /// weeks (as weekly repeats always allowed), a year of months.
    public var intervals: ClosedRange<Int> {
        switch self {
        case .daily: 1...365
        case .weekly: 1...52
        case .monthly: 1...12
        }
    }

    /// "day", "week", "month": the unit of the interval, in words.
    public var unit: String {
        switch self {
        case .daily: "day"
        case .weekly: "week"
        case .monthly: "month"
        }
    }

    /// RFC 5545's FREQ value: "DAILY", "WEEKLY", "MONTHLY".
    public var code: String { rawValue.uppercased() }
}

/// A weekday's place in its month, RFC 5545's BYDAY with an ordinal: "2TU" (the second Tuesday),
/// "-1FR" (the last Friday). A month without a fifth such day has no occurrence.
public struct MonthlyWeekday: Sendable, Hashable, CustomStringConvertible {
    /// 1 to 5 counted from the month's start, or -1: the last.
    public static let ordinals = [1, 2, 3, 4, 5, -1]

    public let ordinal: Int
    public let weekday: Weekday

    public init?(ordinal: Int, weekday: Weekday) {
        guard Self.ordinals.contains(ordinal) else { return nil }
        self.ordinal = ordinal
        self.weekday = weekday
    }

    /// "2TU", "-1FR", "+1MO" (RFC 5545's spelling, any case).
    public init?(code: String) {
        let text = code.trimmingCharacters(in: .whitespaces).uppercased()
        guard text.count >= 3, let day = Weekday(name: String(text.suffix(2))),
            let ordinal = Int(text.dropLast(2))
        else { return nil }
        self.init(ordinal: ordinal, weekday: day)
    }

    /// "2TU", "-1FR".
    public var code: String { "\(ordinal)\(weekday.code)" }
    public var description: String { code }

    /// The day of `month` in `year` it names, nil when that month has no such day (a fifth Monday).
    public func day(inMonth month: Int, year: Int) -> LocalDate? {
        guard let first = LocalDate(year: year, month: month, day: 1) else { return nil }
        let length = LocalDate.daysIn(month: month, year: year)
        if ordinal < 0 {
            guard let last = LocalDate(year: year, month: month, day: length) else { return nil }
            let back = (Weekday(last).rawValue - weekday.rawValue + 7) % 7
            return last.adding(days: -back)
        }
        let forward = (weekday.rawValue - Weekday(first).rawValue + 7) % 7
        let day = 1 + forward + 7 * (ordinal - 1)
        return day <= length ? LocalDate(year: year, month: month, day: day) : nil
    }
}

/// Which days a repeat falls on, within the days, weeks or months its interval picks.
public enum RepeatPattern: Sendable, Hashable {
    /// Every day of the interval's days.
    case daily
    /// On these weekdays of the interval's weeks (weeks start on Monday).
    case weekly(Set<Weekday>)
    /// On this day of the interval's months (1-31); a month without it has no occurrence (RFC
    /// 5545: the 31st repeats in 31-day months only).
    case monthlyOnDay(Int)
    /// On this weekday's place in the interval's months: the second Tuesday, the last Friday.
    case monthlyOnWeekday(MonthlyWeekday)

    public static let monthDays: ClosedRange<Int> = 1...31

    public var frequency: RepeatFrequency {
        switch self {
        case .daily: .daily
        case .weekly: .weekly
        case .monthlyOnDay, .monthlyOnWeekday: .monthly
        }
    }
}
