import Foundation
import KithCore

/// A logged food as the day's list and its own page show it.
struct FoodItemRow {
    let id: String
    let name: String
    let calories: String
    /// The amount and the macros that are known, then where it came from:
    /// "2 × 1 banana · P 2.6 g · C 54 g · by hand".
    let details: String
    let source: String
    let sourceLabel: String

    init(_ item: FoodItem) {
        let food = item.food
        let label = Self.sourceLabels[item.source] ?? item.source.rawValue
        let macros = [("P", food.protein), ("C", food.carbs), ("F", food.fat)].compactMap { letter, grams in
            grams.map { "\(letter) \(NutritionFormat.grams($0))" }
        }
        id = item.id.lowercased
        name = food.name
        calories = NutritionFormat.kcal(food.calories)
        details = ([food.amount].compactMap { $0 } + macros + [label]).joined(separator: " · ")
        source = item.source.rawValue
        sourceLabel = label
    }

    static let sourceLabels: [FoodSource: String] = [.manual: "by hand", .search: "from search", .meal: "from a meal"]
}
