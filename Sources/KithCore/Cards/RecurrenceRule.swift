import Foundation

/// An RRULE (RFC 5545 §3.3.10). `raw` is the rule as written and is what Kith writes back, so a
/// rule Kith cannot show (COUNT, UNTIL, a yearly rule) is kept whole; the other fields are read
/// from it. Build a new rule with `init(frequency:interval:byDay:)` or from a `Recurrence`.
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

    /// The rule of a Kith recurrence (`FREQ=WEEKLY;INTERVAL=…;BYDAY=…;WKST=MO`, `FREQ=DAILY;…`, …).
    public init(_ recurrence: Recurrence) { self.init(raw: recurrence.rrule) }

    /// The rule part `name` ("COUNT", "UNTIL", …), as written.
    public func part(_ name: String) -> String? { RecurrenceRule.parts(raw)[name.uppercased()] }

    /// The rule as Kith's recurrence (`Recurrence`) can hold it, for a series starting on `start`
    /// (whose weekday a weekly rule without BYDAY, and whose day a monthly rule without BYMONTHDAY
    /// or BYDAY, falls on): FREQ=DAILY; FREQ=WEEKLY with plain weekdays in BYDAY; FREQ=MONTHLY with
    /// one BYMONTHDAY (1 to 31), or one BYDAY with its place ("2TU", "-1FR"; or "TU" with one
    /// BYSETPOS, as Apple's apps write it); the interval within its frequency's range, and no
    /// other part but WKST (which must be MO for a weekly interval over 1: it moves the weeks).
    /// Nil for any other rule (COUNT, UNTIL, yearly, several month days…), which the caller keeps
    /// as it is and does not edit.
    public func pattern(startingOn start: LocalDate?) -> (pattern: RepeatPattern, interval: Int)? {
        let parts = RecurrenceRule.parts(raw)
        guard let frequency = RepeatFrequency(rawValue: frequency.lowercased()), frequency.intervals.contains(interval)
        else { return nil }
        if parts["INTERVAL"] != nil, Int(parts["INTERVAL"] ?? "") == nil { return nil }
        let allowed: Set<String> =
            switch frequency {
            case .daily: ["FREQ", "INTERVAL", "WKST"]
            case .weekly: ["FREQ", "INTERVAL", "BYDAY", "WKST"]
            case .monthly: ["FREQ", "INTERVAL", "WKST", "BYMONTHDAY", "BYDAY", "BYSETPOS"]
            }
        guard Set(parts.keys).isSubset(of: allowed) else { return nil }
        switch frequency {
        case .daily:
            return (.daily, interval)
        case .weekly:
            if let weekStart = parts["WKST"], weekStart.uppercased() != "MO", interval > 1 { return nil }
            var weekdays = Set<Weekday>()
            for code in byDay {
                guard code.count == 2, let day = Weekday(name: code) else { return nil }
                weekdays.insert(day)
            }
            if weekdays.isEmpty {
                guard let start else { return nil }
                weekdays = [Weekday(start)]
            }
            return (.weekly(weekdays), interval)
        case .monthly:
            return monthlyPattern(parts, start: start).map { ($0, interval) }
        }
    }

    private func monthlyPattern(_ parts: [String: String], start: LocalDate?) -> RepeatPattern? {
        let monthDays = parts["BYMONTHDAY"].map { $0.split(separator: ",").map { Int($0) } }
        let setPositions = parts["BYSETPOS"].map { $0.split(separator: ",").map { Int($0) } }
        switch (monthDays, byDay.count, setPositions) {
        case (nil, 0, nil):
            return start.map { .monthlyOnDay($0.day) }
        case (let days?, 0, nil):
            guard days.count == 1, let day = days[0], RepeatPattern.monthDays.contains(day) else { return nil }
            return .monthlyOnDay(day)
        case (nil, 1, nil):
            return MonthlyWeekday(code: byDay[0]).map { .monthlyOnWeekday($0) }
        case (nil, 1, let positions?):
            guard positions.count == 1, let position = positions[0], byDay[0].count == 2,
                let day = Weekday(name: byDay[0]), let place = MonthlyWeekday(ordinal: position, weekday: day)
            else { return nil }
            return .monthlyOnWeekday(place)
        default:
            return nil
        }
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
    /// The rule as Kith's recurrence of a series whose first occurrence is `first`, read on
    /// `zone`'s clock (its day and time of day start the series); nil for any rule `pattern`
    /// refuses.
    public func recurrence(first: Date, in zone: TimeZone) -> Recurrence? {
        let day = LocalDate(first, in: zone)
        guard let found = pattern(startingOn: day) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: first)
        guard let clock = LocalTime(hour: parts.hour ?? 0, minute: parts.minute ?? 0),
            case .success(let recurrence) = Recurrence.make(
                found.pattern, interval: found.interval, start: day, time: clock, timeZone: zone)
        else { return nil }
        return recurrence
    }
}
