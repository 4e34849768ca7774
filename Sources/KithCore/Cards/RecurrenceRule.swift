import Foundation

/// An RRULE (RFC 5545 §3.3.10). `raw` is the rule as written and is what Kith writes back, so a
/// rule Kith cannot show (BYSETPOS, COUNT, a monthly rule) is kept whole; the other fields are read
/// from it. Build a new rule with `init(frequency:interval:byDay:)` or from a `WeeklyRecurrence`.
public struct RecurrenceRule: Sendable, Equatable {
    /// "WEEKLY", "DAILY", … upper-cased; "" when the rule has no FREQ.
    public var frequency: String
    /// INTERVAL, 1 when absent.
    public var interval: Int
    /// BYDAY as written: ["MO", "WE"], or with ordinals (["2TU"], ["-1SU"]) in monthly rules.
    public var byDay: [String]
    public var raw: String

    public init(raw: String) {
        self.raw = raw
        let parts = RecurrenceRule.parts(raw)
        frequency = parts["FREQ"]?.uppercased() ?? ""
        interval = parts["INTERVAL"].flatMap { Int($0) } ?? 1
        byDay = parts["BYDAY"].map { $0.split(separator: ",").map { $0.uppercased() } } ?? []
    }

    public init(frequency: String, interval: Int = 1, byDay: [String] = []) {
        var text = "FREQ=\(frequency.uppercased())"
        if interval != 1 { text += ";INTERVAL=\(interval)" }
        if !byDay.isEmpty { text += ";BYDAY=\(byDay.joined(separator: ","))" }
        self.init(raw: text)
    }

    /// The rule of a Kith weekly recurrence (`FREQ=WEEKLY;INTERVAL=…;BYDAY=…;WKST=MO`).
    public init(_ weekly: WeeklyRecurrence) { self.init(raw: weekly.rrule) }

    /// The rule part `name` ("COUNT", "UNTIL", …), as written.
    public func part(_ name: String) -> String? { RecurrenceRule.parts(raw)[name.uppercased()] }

    /// The rule as Kith's weekly recurrence (WeeklyRecurrence) can hold it: FREQ=WEEKLY with
    /// plain weekdays in BYDAY (none: the weekday of DTSTART, `start`), INTERVAL 1 to 52, and no
    /// other part but WKST (which must be MO when the interval is over 1: it moves the weeks).
    /// Nil for any other rule, which the caller keeps as it is and does not edit.
    public func weekly(start: Weekday? = nil) -> (weekdays: Set<Weekday>, interval: Int)? {
        let parts = RecurrenceRule.parts(raw)
        guard frequency == "WEEKLY", Set(parts.keys).isSubset(of: ["FREQ", "INTERVAL", "BYDAY", "WKST"]),
            WeeklyRecurrence.intervals.contains(interval)
        else { return nil }
        if let weekStart = parts["WKST"], weekStart.uppercased() != "MO", interval > 1 { return nil }
        if parts["INTERVAL"] != nil, Int(parts["INTERVAL"] ?? "") == nil { return nil }
        var weekdays = Set<Weekday>()
        for code in byDay {
            guard code.count == 2, let day = Weekday(name: code) else { return nil }
            weekdays.insert(day)
        }
        if weekdays.isEmpty {
            guard let start else { return nil }
            weekdays = [start]
        }
        return (weekdays, interval)
    }

    private static func parts(_ raw: String) -> [String: String] {
        var parts: [String: String] = [:]
        for piece in raw.split(separator: ";") {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingCharacters(in: .whitespaces).uppercased()
            if parts[name] == nil { parts[name] = pair[1].trimmingCharacters(in: .whitespaces) }
        }
        return parts
    }
}

extension RecurrenceRule {
    /// The rule as Kith's weekly recurrence of a series whose first occurrence is `first`, read on
    /// `zone`'s clock (its day and time of day start the series); nil for any rule `weekly` refuses.
    public func weeklyRecurrence(first: Date, in zone: TimeZone) -> WeeklyRecurrence? {
        let day = LocalDate(first, in: zone)
        guard let weekly = weekly(start: Weekday(day)) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: first)
        guard let clock = LocalTime(hour: parts.hour ?? 0, minute: parts.minute ?? 0),
            case .success(let recurrence) = WeeklyRecurrence.make(
                weekdays: weekly.weekdays, interval: weekly.interval, start: day, time: clock, timeZone: zone)
        else { return nil }
        return recurrence
    }
}
