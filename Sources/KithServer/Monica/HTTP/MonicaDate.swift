import Foundation

/// A calendar day as Monica stores and answers it (`Y-m-d`), without time zone arithmetic.
struct MonicaDate: Sendable, Equatable, Comparable {
    let year: Int
    let month: Int
    let day: Int

    init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day),
            (0...9999).contains(year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    init?(ymd text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    var ymd: String { String(format: "%04d-%02d-%02d", year, month, day) }

    /// How Monica answers a date inside a timestamp field: midnight UTC.
    var midnightTimestamp: String { ymd + "T00:00:00Z" }

    static func < (lhs: MonicaDate, rhs: MonicaDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The UTC day of an instant.
    init(utc date: Date) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        (year, month, day) = MonicaTimestamp.civil(fromDays: Self.floorDiv(seconds, 86_400))
    }

    /// Days divided towards minus infinity, so instants before 1970 fall on the right day.
    static func floorDiv(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : (value - divisor + 1) / divisor
    }
}

/// Monica's timestamp format, `Y-m-d\TH:i:s\Z` in UTC.
enum MonicaTimestamp {
    static func format(millis: Int64) -> String {
        let seconds = MonicaDate.floorDiv(millis, 1000)
        let days = MonicaDate.floorDiv(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day, Int(secondOfDay / 3600),
            Int(secondOfDay % 3600 / 60), Int(secondOfDay % 60))
    }

    static func format(millis: Int64?) -> String? { millis.map { format(millis: $0) } }

    /// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm): formatting
    /// a whole page of timestamps this way costs nothing next to a DateFormatter.
    static func civil(fromDays days: Int64) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}
