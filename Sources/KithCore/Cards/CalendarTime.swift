import Foundation

/// An iCalendar DATE or DATE-TIME (RFC 5545 §3.3.4, §3.3.5) with the form it was written in, so a
/// task written back says it the same way: UTC ("…Z"), a wall time in a zone (TZID=…), a
/// floating wall time (no zone: the same clock time wherever the reader is), or a whole day.
public struct CalendarTime: Sendable, Equatable {
    /// The instant. For a floating time or a day without a zone, the wall time read as UTC.
    public var date: Date
    /// The TZID zone; nil for UTC ("Z") and for floating times.
    public var timeZone: TimeZone?
    /// A DATE (VALUE=DATE): `date` is midnight in `timeZone`, or UTC when there is none.
    public var isDateOnly: Bool
    /// No zone and no "Z": a wall-clock time (or day) in whatever zone the reader is in. A day
    /// without a zone is always floating (`day(_:)`): that is how it reads back.
    public var isFloating: Bool

    public init(date: Date, timeZone: TimeZone? = nil, isDateOnly: Bool = false, isFloating: Bool = false) {
        self.date = date
        self.timeZone = timeZone
        self.isDateOnly = isDateOnly
        self.isFloating = isFloating
    }

    /// A UTC instant ("20240315T080000Z").
    public static func utc(_ date: Date) -> CalendarTime { CalendarTime(date: date) }

    /// A whole day without a zone ("DUE;VALUE=DATE:20240315"), as reminders apps write a day.
    public static func day(_ day: LocalDate) -> CalendarTime {
        CalendarTime(date: WallTime(day: day).utcDate, isDateOnly: true, isFloating: true)
    }

    /// A wall time in `zone` ("DUE;TZID=Europe/Berlin:20240315T090000").
    public static func local(_ date: Date, in zone: TimeZone) -> CalendarTime {
        CalendarTime(date: date, timeZone: zone)
    }

    /// The calendar day: in `timeZone`, else as written.
    public var localDate: LocalDate { LocalDate(date, in: timeZone ?? TimeZone(identifier: "UTC") ?? .current) }

    // MARK: - Text

    /// Reads a value with its TZID and VALUE parameters; `zone` resolves a TZID. Nil when the value
    /// is not a date or date-time; throws when it names a zone nobody can resolve.
    static func read(
        _ line: ContentLine, number: Int, zone: (String) -> TimeZone?
    ) throws(CardFormatError) -> CalendarTime? {
        let text = line.value.trimmingCharacters(in: .whitespaces)
        guard let wall = WallTime(text) else { return nil }
        var timeZone: TimeZone?
        if let tzid = line.parameter("TZID").first, !wall.isUTC {
            guard let resolved = zone(tzid) else {
                throw CardFormatError(
                    line: number,
                    message:
                        "Line \(number)'s \(line.name) is in the time zone \"\(tzid)\", which the calendar does not "
                        + "describe (no VTIMEZONE with that TZID) and Kith does not know.")
            }
            timeZone = resolved
        }
        let date = timeZone.map { wall.date(in: $0) } ?? wall.utcDate
        return CalendarTime(
            date: date, timeZone: timeZone, isDateOnly: wall.isDateOnly, isFloating: timeZone == nil && !wall.isUTC)
    }

    /// The content line `name` that says this time in the same form.
    func line(_ name: String) -> ContentLine {
        var parameters: [ContentLine.Parameter] = []
        if let timeZone { parameters.append(ContentLine.Parameter(name: "TZID", values: [timeZone.identifier])) }
        if isDateOnly { parameters.append(ContentLine.Parameter(name: "VALUE", values: ["DATE"])) }
        let wall = timeZone.map { WallTime(date, in: $0) } ?? WallTime(utc: date)
        let text = isDateOnly ? wall.dateText : wall.dateTimeText + (timeZone == nil && !isFloating ? "Z" : "")
        return ContentLine(name: name, parameters: parameters, value: text)
    }
}

/// A calendar day and clock time as written, before any zone.
struct WallTime {
    var year: Int, month: Int, day: Int
    var hour = 0, minute = 0, second = 0
    var isDateOnly = false
    var isUTC = false

    init(day: LocalDate) {
        year = day.year
        month = day.month
        self.day = day.day
        isDateOnly = true
    }

    /// "20240315", "20240315T090000", "20240315T090000Z".
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return nil
            }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard bytes.count >= 8, let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
            LocalDate(year: year, month: month, day: day) != nil
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
        if bytes.count == 8 {
            isDateOnly = true
            return
        }
        guard bytes.count == 15 || bytes.count == 16, bytes[8] == 0x54 || bytes[8] == 0x74,
            let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        if bytes.count == 16 {
            guard bytes[15] == 0x5A || bytes[15] == 0x7A else { return nil }
            isUTC = true
        }
        self.hour = hour
        self.minute = minute
        self.second = min(second, 59)
    }

    init(utc date: Date) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let day = LocalDate(dayNumber: days) ?? LocalDate(dayNumber: 0)!
        let rest = seconds - days * 86_400
        year = day.year
        month = day.month
        self.day = day.day
        hour = rest / 3600
        minute = rest % 3600 / 60
        second = rest % 60
    }

    init(_ date: Date, in zone: TimeZone) {
        self.init(utc: date.addingTimeInterval(TimeInterval(zone.secondsFromGMT(for: date))))
    }

    var utcDate: Date {
        let day = LocalDate(year: year, month: month, day: self.day)?.dayNumber ?? 0
        return Date(timeIntervalSince1970: TimeInterval(day * 86_400 + hour * 3600 + minute * 60 + second))
    }

    /// The instant this wall time names in `zone`; a time skipped by a spring-forward change is
    /// read with the offset before it.
    func date(in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return calendar.date(from: components)
            ?? utcDate.addingTimeInterval(-TimeInterval(zone.secondsFromGMT(for: utcDate)))
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    var dateText: String { Self.padded(year, 4) + Self.padded(month, 2) + Self.padded(day, 2) }
    var dateTimeText: String { dateText + "T" + Self.padded(hour, 2) + Self.padded(minute, 2) + Self.padded(second, 2) }
}
