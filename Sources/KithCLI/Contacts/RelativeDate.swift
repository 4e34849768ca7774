import Foundation
import KithKit

/// "2 days ago", "in 3 weeks", "today", for text output; JSON keeps exact dates.
enum RelativeDate {
    /// A moment, relative to `now`.
    static func text(_ date: Date, now: Date = Date()) -> String {
        let seconds = now.timeIntervalSince(date)
        let magnitude = abs(seconds)
        if magnitude < 60 { return "just now" }
        let amount: String
        switch magnitude {
        case ..<3600: amount = Plural.count(Int(magnitude / 60), "minute")
        case ..<86_400: amount = Plural.count(Int(magnitude / 3600), "hour")
        default:
            return text(day: MonicaDay(date, in: .current), today: MonicaDay(now, in: .current))
        }
        return seconds > 0 ? "\(amount) ago" : "in \(amount)"
    }

    /// A calendar day, relative to `today`: "today", "yesterday", "5 days ago", "in 2 months".
    static func text(day: MonicaDay, today: MonicaDay = MonicaDay(Date(), in: .current)) -> String {
        guard let start = day.midnightUTC, let end = today.midnightUTC else { return day.description }
        let days = Int((end.timeIntervalSince(start) / 86_400).rounded())
        switch days {
        case 0: return "today"
        case 1: return "yesterday"
        case -1: return "tomorrow"
        default: break
        }
        let magnitude = abs(days)
        let amount: String
        switch magnitude {
        case ..<14: amount = Plural.count(magnitude, "day")
        case ..<60: amount = Plural.count(magnitude / 7, "week")
        case ..<730: amount = Plural.count(magnitude / 30, "month")
        default: amount = Plural.count(magnitude / 365, "year")
        }
        return days > 0 ? "\(amount) ago" : "in \(amount)"
    }

    /// "2024-05-04 (2 days ago)".
    static func day(_ day: MonicaDay) -> String { "\(day) (\(text(day: day)))" }

    /// "2024-05-04 (2 days ago)" for a moment, shown as its day here.
    static func moment(_ date: Date) -> String { "\(MonicaDay(date, in: .current)) (\(text(date)))" }
}
