import Foundation
import KithCore

/// How food lines read in a terminal.
enum FoodText {
    static func kcal(_ value: Double) -> String { "\(Food.format(value.rounded())) kcal" }

    /// "3f2a9c1e  Banana (1 medium) 105 kcal · P 1.3 g · C 27 g · F 0.4 g"
    static func line(_ item: FoodItem) -> String {
        let serving = item.food.serving.map { " (\($0))" } ?? ""
        return "\(item.id.lowercased.prefix(8))  \(item.food.name)\(serving) \(kcal(item.food.calories))"
            + macros(item.food)
    }

    static func macros(_ food: Food) -> String {
        let parts = [("P", food.protein), ("C", food.carbs), ("F", food.fat)].compactMap { label, grams in
            grams.map { "\(label) \(Food.format($0)) g" }
        }
        return parts.isEmpty ? "" : " · " + parts.joined(separator: " · ")
    }

    static func day(_ summary: DaySummary) -> String {
        var lines = ["\(summary.date): \(kcal(summary.totalCalories))" + goal(summary)]
        lines += summary.items.isEmpty ? ["  nothing logged"] : summary.items.map { "  " + line($0) }
        return lines.joined(separator: "\n")
    }

    static func goal(_ summary: DaySummary) -> String {
        guard let goal = summary.goal, let remaining = summary.remaining else { return " (no goal set)" }
        let left = remaining >= 0 ? "\(kcal(remaining)) left" : "\(kcal(-remaining)) over"
        return " of \(goal) kcal, \(left)"
    }

    /// One bar per day, scaled to the largest of the totals and goals.
    static func chart(_ days: [DayTotal], width: Int = 30) -> String {
        let top = max(days.map(\.calories).max() ?? 0, Double(days.compactMap(\.goal).max() ?? 0), 1)
        return days.map { day in
            let filled = Int((day.calories / top * Double(width)).rounded())
            var bar = Array(repeating: Character("█"), count: filled) + Array(repeating: Character("·"), count: width - filled)
            if let goal = day.goal {
                let mark = min(width - 1, Int((Double(goal) / top * Double(width)).rounded()))
                if mark >= 0 { bar[mark] = "|" }
            }
            let goalText = day.goal.map { " / \($0)" } ?? ""
            return "\(day.date) \(String(bar)) \(Food.format(day.calories.rounded()))\(goalText)"
        }.joined(separator: "\n")
    }
}
