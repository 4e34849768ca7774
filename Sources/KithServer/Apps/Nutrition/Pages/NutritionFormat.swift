import Foundation
import KithCore

/// Numbers and dates as the Nutrition pages write them, the same on every page and in the chart.
enum NutritionFormat {
    /// Calories rounded to whole kcal, thousands grouped: "1,250".
    static func kcal(_ value: Double) -> String {
        let rounded = Int64(max(min(value.rounded(), 9e15), -9e15))
        let digits = String(abs(rounded))
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (rounded < 0 ? "-" : "") + grouped
    }

    /// Grams of a macro: "12.5 g", or "–" when unknown.
    static func grams(_ value: Double?) -> String { value.map { Food.format($0) + " g" } ?? "–" }

    /// A number for a form field ("" when absent).
    static func field(_ value: Double?) -> String { value.map(Food.format) ?? "" }

    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    /// 0 for Monday … 6 for Sunday (1970-01-01 was a Thursday).
    static func weekdayIndex(_ date: LocalDate) -> Int { ((date.dayNumber + 3) % 7 + 7) % 7 }

    /// "Tuesday 24 November 2026".
    static func long(_ date: LocalDate) -> String {
        "\(weekdays[weekdayIndex(date)]) \(date.day) \(months[date.month - 1]) \(date.year)"
    }

    /// The day before `date` as a person names it from there: "yesterday" from today, else "Sat 5 Dec".
    static func dayBefore(_ date: LocalDate, today: LocalDate) -> String {
        date == today ? "yesterday" : medium(date.adding(days: -1))
    }

    /// "24 Nov".
    static func short(_ date: LocalDate) -> String { "\(date.day) \(months[date.month - 1].prefix(3))" }

    /// "Tue 24 Nov".
    static func medium(_ date: LocalDate) -> String {
        "\(weekdays[weekdayIndex(date)].prefix(3)) \(date.day) \(months[date.month - 1].prefix(3))"
    }
}
