import Foundation
import KithCore
import KithKit

/// How food lines read in a terminal.
enum FoodText {
    static func kcal(_ value: Double) -> String { "\(Food.format(value.rounded())) kcal" }

    /// "3f2a9c1e  Banana (2 × 1 medium) 210 kcal · P 2.6 g · C 54 g · F 0.8 g"
    static func line(_ item: FoodItem) -> String {
        "\(item.id.lowercased.prefix(8))  " + food(item.food)
    }

    /// "Banana (2 × 1 medium) 210 kcal · P 2.6 g …": a food with its amount and numbers.
    static func food(_ food: Food) -> String {
        let amount = food.amount.map { " (\($0))" } ?? ""
        return "\(food.name)\(amount) \(kcal(food.calories))" + macros(food)
    }

    /// "Added Banana to breakfast." and its line.
    static func logged(_ item: FoodItem) -> String {
        "Added \(item.food.name) to \(item.mealOfDay?.rawValue ?? "the day").\n" + line(item)
    }

    /// "1. …" lines.
    static func numbered(_ lines: [String]) -> String {
        lines.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n")
    }

    /// The `number`th of a numbered list (from 1); refused with how many there are.
    static func numbered<Element>(_ list: [Element], _ number: Int, kind: String) throws -> Element {
        guard list.indices.contains(number - 1) else {
            throw KithError.invalid(
                APIErrorDetail(.notFound, "There are \(list.count) \(kind); there is no number \(number)."))
        }
        return list[number - 1]
    }

    static func macros(_ food: Food) -> String {
        let parts = [("P", food.protein), ("C", food.carbs), ("F", food.fat)].compactMap { label, grams in
            grams.map { "\(label) \(Food.format($0)) g" }
        }
        return parts.isEmpty ? "" : " · " + parts.joined(separator: " · ")
    }

    static func day(_ summary: DaySummary) -> String {
        var lines = ["\(summary.date): \(kcal(summary.totalCalories))" + goal(summary)]
        if summary.items.isEmpty { lines.append("  nothing logged") }
        for section in summary.meals {
            lines.append("  \(section.meal.title): \(kcal(section.totalCalories))")
            lines += section.items.map { "    " + line($0) }
        }
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
