import Foundation
import KithCore

/// A moment as Laravel's `date` rule takes it from a client: a day (`2024-05-04`, midnight UTC),
/// or a day and a time (`2024-05-04 08:06`, `2024-05-04T08:06:05`, with fractions of a second and
/// `Z` or an offset such as `+02:00`; no offset is UTC). Parsed digit by digit into milliseconds
/// since 1970, years 1 to 9999, so no input reaches arithmetic that could trap.
enum MonicaInstant {
    static func millis(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, let day = MonicaDate(ymd: String(decoding: bytes[0..<10], as: UTF8.self)) else {
            return nil
        }
        var reader = Reader(bytes: bytes, position: 10)
        var secondOfDay: Int64 = 0
        var millis: Int64 = 0
        var offsetSeconds: Int64 = 0
        if !reader.atEnd {
            guard reader.take(ascii: "T") || reader.take(ascii: " "),
                let hour = reader.number(digits: 2), hour < 24, reader.take(ascii: ":"),
                let minute = reader.number(digits: 2), minute < 60
            else { return nil }
            var second: Int64 = 0
            if reader.take(ascii: ":") {
                guard let value = reader.number(digits: 2), value < 60 else { return nil }
                second = value
                if reader.take(ascii: ".") {
                    guard let fraction = reader.fractionMillis() else { return nil }
                    millis = fraction
                }
            }
            secondOfDay = hour * 3600 + minute * 60 + second
            if reader.take(ascii: "Z") {
            } else if let sign = reader.sign() {
                guard let hours = reader.number(digits: 2), hours <= 14 else { return nil }
                _ = reader.take(ascii: ":")
                guard let minutes = reader.number(digits: 2), minutes < 60 else { return nil }
                offsetSeconds = sign * (hours * 3600 + minutes * 60)
            }
            guard reader.atEnd else { return nil }
        }
        let result = (day.dayNumber * 86_400 + secondOfDay - offsetSeconds) * 1000 + millis
        guard (UTCTimestamp.earliestMillis...UTCTimestamp.latestMillis).contains(result) else { return nil }
        return result
    }

    private struct Reader {
        let bytes: [UInt8]
        var position: Int

        var atEnd: Bool { position == bytes.count }

        mutating func take(ascii: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: ascii) else { return false }
            position += 1
            return true
        }

        mutating func sign() -> Int64? {
            if take(ascii: "+") { return 1 }
            if take(ascii: "-") { return -1 }
            return nil
        }

        mutating func number(digits: Int) -> Int64? {
            guard position + digits <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[position..<position + digits] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            position += digits
            return value
        }

        /// One to nine digits of a second's fraction, as whole milliseconds.
        mutating func fractionMillis() -> Int64? {
            var digits = 0
            var value: Int64 = 0
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                if digits < 3 { value = value * 10 + Int64(bytes[position] - UInt8(ascii: "0")) }
                digits += 1
                position += 1
            }
            guard (1...9).contains(digits) else { return nil }
            if digits < 3 { for _ in digits..<3 { value *= 10 } }
            return value
        }
    }
}
