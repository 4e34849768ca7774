import Foundation

/// The part of a day a food was eaten in: a day's log is shown as these sections, each with its total.
public enum MealOfDay: String, Sendable, Codable, CaseIterable, Comparable {
    case breakfast, lunch, dinner, snacks

    /// "Breakfast", as a section's heading says it.
    public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// The meal a food eaten at `hour` (0-23) most likely belongs to: what a new food defaults to,
    /// and where a food logged before meals existed is shown.
    public static func usual(atHour hour: Int) -> MealOfDay {
        switch hour {
        case 4..<11: .breakfast
        case 11..<15: .lunch
        case 17..<22: .dinner
        default: .snacks
        }
    }

    /// The meal it is time for at `time` in `zone`.
    public static func usual(at time: Date, in zone: TimeZone) -> MealOfDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return usual(atHour: calendar.component(.hour, from: time))
    }

    public static func < (lhs: MealOfDay, rhs: MealOfDay) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
