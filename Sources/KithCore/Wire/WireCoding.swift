import Foundation

/// JSON coders with the wire's conventions (ISO 8601 dates with milliseconds), shared by every side.
public enum WireCoding {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatTimestamp(date))
        }
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseTimestamp(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an ISO 8601 timestamp, got \(text)")
            }
            return date
        }
        return decoder
    }

    /// `2026-11-21T15:52:00.123Z`. Milliseconds are rounded from the integer count, because
    /// formatting the binary fraction directly truncates .123 to .122.
    public static func formatTimestamp(_ date: Date) -> String {
        let millis = date.epochMillis
        // Where Foundation's calendar is Gregorian too, digit by digit: Foundation's formatter was
        // a fiftieth of a token refresh's CPU. Before 1583 its days are Julian.
        if millis >= UTCTimestamp.gregorianMillis, millis <= UTCTimestamp.latestMillis {
            return UTCTimestamp.text(millis: millis, withMillis: true)
        }
        let (seconds, fraction) = millis.quotientAndRemainder(dividingBy: 1000)
        let wholeSeconds = Date(timeIntervalSince1970: TimeInterval(fraction < 0 ? seconds - 1 : seconds))
        let text = wholeSeconds.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
        let milliseconds = fraction < 0 ? fraction + 1000 : fraction
        return String(text.dropLast()) + "." + String(milliseconds + 1000).dropFirst() + "Z"
    }

    /// An ISO 8601 timestamp (`2026-11-21T15:52:00.123Z`, fractions and a `±HH:MM` offset
    /// allowed) that names a real instant in years 1 to 9999; nil otherwise. Foundation's parser
    /// alone is lenient (February 30 reads as March 2, year 0 as year 1), so the parts are checked first.
    public static func parseTimestamp(_ text: String) -> Date? {
        guard TimestampShape.isValid(Array(text.utf8)) else { return nil }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}

/// The parts of an ISO 8601 timestamp, checked: `YYYY-MM-DDTHH:MM:SS`, an optional fraction, then
/// `Z` or `±HH:MM`; a day that exists in years 1 to 9999, a time of day before 24:00.
private enum TimestampShape {
    static func isValid(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 20, bytes[4] == dash, bytes[7] == dash, bytes[10] == UInt8(ascii: "T"),
            bytes[13] == colon, bytes[16] == colon,
            let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
            let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2),
            (1...9999).contains(year), (1...12).contains(month), (1...daysIn(month, year)).contains(day), hour < 24,
            minute < 60, second < 60
        else { return false }
        var index = 19
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > start, index < bytes.count else { return false }
        }
        if bytes[index] == UInt8(ascii: "Z") { return index == bytes.count - 1 }
        guard bytes[index] == UInt8(ascii: "+") || bytes[index] == dash, bytes.count == index + 6,
            bytes[index + 3] == colon, let hours = number(bytes, index + 1, 2), let minutes = number(bytes, index + 4, 2)
        else { return false }
        return hours < 24 && minutes < 60
    }

    private static let dash = UInt8(ascii: "-")
    private static let colon = UInt8(ascii: ":")

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    private static func number(_ bytes: [UInt8], _ start: Int, _ length: Int) -> Int? {
        guard start + length <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<(start + length)] {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
