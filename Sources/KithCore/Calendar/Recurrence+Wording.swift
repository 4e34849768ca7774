import Foundation

extension Recurrence {
    /// The repeat in words, as the pages and the command line say it: "Every day at 08:00",
    /// "Every 2 weeks on Mon, Wed at 07:30", "Every month on the 15th at 08:00", "Every 2 months
    /// on the second Tuesday at 08:00".
    public var summary: String {
        let unit = frequency.unit
        let every = interval == 1 ? "Every \(unit)" : "Every \(interval) \(unit)s"
        switch pattern {
        case .daily:
            return "\(every) at \(time)"
        case .weekly(let days):
            return "\(every) on \(days.sorted().map(\.shortName).joined(separator: ", ")) at \(time)"
        case .monthlyOnDay(let day):
            return "\(every) on the \(Self.ordinalNumber(day)) at \(time)"
        case .monthlyOnWeekday(let place):
            return "\(every) on the \(place.ordinalWord) \(place.weekday.name) at \(time)"
        }
    }

    /// "1st", "2nd", "3rd", "11th", "22nd", "31st".
    public static func ordinalNumber(_ number: Int) -> String {
        let suffix =
            (11...13).contains(number % 100)
            ? "th" : [1: "st", 2: "nd", 3: "rd"][number % 10] ?? "th"
        return "\(number)\(suffix)"
    }
}

extension MonthlyWeekday {
    /// "first" … "fifth", "last".
    public var ordinalWord: String { Self.ordinalWord(ordinal) }

    public static func ordinalWord(_ ordinal: Int) -> String {
        ordinal < 0 ? "last" : ["first", "second", "third", "fourth", "fifth"][min(max(ordinal, 1), 5) - 1]
    }
}

extension Weekday {
    /// "Monday" … "Sunday".
    public var name: String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][rawValue]
    }

    /// "Mon" … "Sun".
    public var shortName: String { String(name.prefix(3)) }
}
