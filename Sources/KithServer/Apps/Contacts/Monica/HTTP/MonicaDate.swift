import Foundation
import KithCore

/// A calendar day as Monica stores and answers it (`Y-m-d`), years 1 to 9999 (Laravel's
/// `date_format:Y-m-d` takes four digits, and PHP's `checkdate` no year 0). Computed with integer
/// arithmetic on a proleptic Gregorian calendar, no `Calendar`, so no value can make it trap.
struct MonicaDate: Sendable, Equatable, Comparable {
    static let years = 1...9999

    let year: Int
    let month: Int
    let day: Int

    init?(year: Int, month: Int, day: Int) {
        guard Self.years.contains(year), (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    private init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    static let unixEpoch = MonicaDate(unchecked: 1970, 1, 1)

    /// The UTC day of the server's clock (clamped into years 1 to 9999).
    static func today(nowMillis: Int64) -> MonicaDate {
        MonicaDate(utcMillis: min(max(nowMillis, UTCTimestamp.earliestMillis), UTCTimestamp.latestMillis)) ?? .unixEpoch
    }

    init?(ymd text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day `dayNumber` days after 1970-01-01; nil outside years 1 to 9999.
    init?(dayNumber: Int64) {
        guard let (year, month, day) = Self.civil(fromDays: dayNumber) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The UTC day of `millis` since 1970; nil outside years 1 to 9999.
    init?(utcMillis millis: Int64) {
        self.init(dayNumber: Self.floorDiv(Self.floorDiv(millis, 1000), 86_400))
    }

    var ymd: String {
        UTCTimestamp.padded(year, width: 4) + "-" + UTCTimestamp.padded(month, width: 2) + "-"
            + UTCTimestamp.padded(day, width: 2)
    }

    /// How Monica answers a date inside a timestamp field: midnight UTC.
    var midnightTimestamp: String { ymd + "T00:00:00Z" }

    /// Days since 1970-01-01 (negative before).
    var dayNumber: Int64 { Self.days(fromCivil: year, month, day) }

    /// Midnight UTC, in milliseconds since 1970.
    var epochMillis: Int64 { dayNumber * 86_400_000 }

    /// Months since January of year 0, for month arithmetic.
    var monthNumber: Int64 { Int64(year) * 12 + Int64(month - 1) }

    /// The `day` of month `monthNumber`, moved back to the month's last day when the month is
    /// shorter (the 31st in April is the 30th); nil outside years 1 to 9999.
    init?(monthNumber: Int64, day: Int) {
        let year = MonicaDate.floorDiv(monthNumber, 12)
        guard year >= Int64(Self.years.lowerBound), year <= Int64(Self.years.upperBound) else { return nil }
        let month = Int(monthNumber - year * 12) + 1
        self.init(year: Int(year), month: month, day: min(day, Self.days(inMonth: month, year: Int(year))))
    }

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

    /// Division towards minus infinity, so instants before 1970 fall on the right day. Never
    /// overflows, whatever the value.
    static func floorDiv(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    /// Howard Hinnant's `days_from_civil`, for years 1 to 9999 (no overflow there).
    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (Hinnant's `civil_from_days`); nil for
    /// days outside years 1 to 9999, so no stored value can overflow it.
    static func civil(fromDays days: Int64) -> (Int, Int, Int)? {
        // 0001-01-01 and 9999-12-31.
        guard days >= -719_162, days <= 2_932_896 else { return nil }
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
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

/// Monica's timestamp format, `Y-m-d\TH:i:s\Z` in UTC.
enum MonicaTimestamp {
    /// A stored time outside years 1 to 9999 (which Kith never writes) is clamped to the nearest
    /// end rather than failing the whole answer.
    static func format(millis: Int64) -> String { UTCTimestamp.text(millis: millis, withMillis: false) }

    static func format(millis: Int64?) -> String? { millis.map { format(millis: $0) } }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
