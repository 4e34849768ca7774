import Foundation

/// A calendar day as a person saw it ("2026-11-24"), with no time zone: what a daily log is for.
/// Arithmetic is on day numbers (days since 1970-01-01 in the proleptic Gregorian calendar), so
/// "90 days before" never depends on daylight saving time or on a `Calendar`'s locale.
public struct LocalDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The day, when it exists (years 1-9999, as the wire allows).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= Self.daysIn(month: month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `yyyy-MM-dd` (ten characters, ASCII digits); nil for anything else.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day `now` falls on in `timeZone`.
    public init(_ now: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        // A Date outside years 1-9999 is clamped rather than trusted: callers pass clocks, not input.
        let clampedYear = min(max(parts.year ?? 1970, 1), 9999)
        self = LocalDate(year: clampedYear, month: parts.month ?? 1, day: parts.day ?? 1) ?? LocalDate.epoch
    }

    public var description: String { UTCTimestamp.text(of: self) }

    /// Days since 1970-01-01 (negative before it).
    public var dayNumber: Int {
        // Howard Hinnant's days_from_civil.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `dayNumber` days after 1970-01-01; nil outside years 1-9999.
    public init?(dayNumber: Int) {
        guard (LocalDate.first.dayNumber...LocalDate.last.dayNumber).contains(dayNumber) else { return nil }
        // Howard Hinnant's civil_from_days.
        let shifted = dayNumber + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// The day `count` days later (earlier when negative), kept within years 1-9999.
    public func adding(days count: Int) -> LocalDate {
        // `magnitude` keeps Int.min from overflowing when negated.
        let steps = Int(min(count.magnitude, UInt(LocalDate.span)))
        let target =
            count >= 0
            ? min(dayNumber + steps, LocalDate.last.dayNumber)
            : max(dayNumber - steps, LocalDate.first.dayNumber)
        return LocalDate(dayNumber: target) ?? self
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = LocalDate(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a yyyy-MM-dd date: \(text)"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static let epoch = LocalDate(year: 1970, month: 1, day: 1)!
    static let first = LocalDate(year: 1, month: 1, day: 1)!
    static let last = LocalDate(year: 9999, month: 12, day: 31)!
    static let span = last.dayNumber - first.dayNumber
}
