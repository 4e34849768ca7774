import Foundation

/// Times and days as text, written digit by digit: `String(format:)` costs microseconds, and a page
/// of 50 contacts writes hundreds of them. Days are in the proleptic Gregorian calendar,
/// as `LocalDate` and Monica's dates are; Foundation's formatters switch to the Julian calendar
/// before October 1582, so `WireCoding` (which parses with Foundation) keeps Foundation's.
public enum UTCTimestamp {
    /// `2026-11-21T15:52:00.123Z` (`withMillis`) or `2026-11-21T15:52:00Z`, in UTC. A time outside
    /// years 1 to 9999 is written as the nearest end of that range.
    public static func text(millis: Int64, withMillis: Bool) -> String {
        let clamped = min(max(millis, earliestMillis), latestMillis)
        let (seconds, milliseconds) = floorDivision(clamped, 1000)
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let date = LocalDate(dayNumber: Int(days)) ?? LocalDate.epoch
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        appendDay(date, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(Int(secondOfDay / 3600), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(Int(secondOfDay % 3600 / 60), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(Int(secondOfDay % 60), width: 2, to: &bytes)
        if withMillis {
            bytes.append(UInt8(ascii: "."))
            appendDigits(Int(milliseconds), width: 3, to: &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `yyyy-MM-dd`.
    public static func text(of date: LocalDate) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(10)
        appendDay(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `value` in decimal, zero-padded to `width` digits (a non-negative value).
    public static func padded(_ value: Int, width: Int) -> String {
        var bytes: [UInt8] = []
        appendDigits(value, width: width, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// 1583-01-01T00:00:00Z: from then on Foundation's calendar and this one agree.
    public static let gregorianMillis: Int64 = -12_212_553_600_000

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z.
    public static let earliestMillis: Int64 = -62_135_596_800_000
    public static let latestMillis: Int64 = 253_402_300_799_999

    private static func appendDay(_ date: LocalDate, to bytes: inout [UInt8]) {
        appendDigits(date.year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(date.month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(date.day, width: 2, to: &bytes)
    }

    private static func appendDigits(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        let value = max(value, 0)
        var divisor = 1
        var count = 1
        while count < width || value / divisor >= 10 {
            divisor *= 10
            count += 1
        }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// Quotient rounded down and a remainder that is never negative.
    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
