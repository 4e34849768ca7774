import Foundation
import KithCore

extension NutritionDayModel {
    /// One meal of the day: its items, its total, and copying it from the day before.
    struct MealSectionRow {
        let meal: String
        let title: String
        let total: String
        let items: [FoodItemRow]
        let hasItems: Bool
        /// The day before, `yyyy-MM-dd`, when it had this meal and this day can be written.
        let copyFrom: String?
        /// "Copy yesterday's breakfast", or "Copy Sat 5 Dec's breakfast" for another day.
        let copyLabel: String

        init(_ meal: MealOfDay, items: [FoodItem], date: LocalDate, today: LocalDate, copyFrom: LocalDate?) {
            self.meal = meal.rawValue
            title = meal.title
            total = NutritionFormat.kcal(items.reduce(0) { $0 + $1.food.calories })
            self.items = items.map(FoodItemRow.init)
            hasItems = !items.isEmpty
            self.copyFrom = copyFrom?.description
            copyLabel = "Copy \(NutritionFormat.dayBefore(date, today: today))'s \(meal.rawValue)"
        }
    }

    /// A meal of the day as an option of the "Add to" choice.
    struct MealChoice {
        let value: String
        let title: String
        let selected: Bool

        static func all(choosing chosen: MealOfDay) -> [MealChoice] {
            MealOfDay.allCases.map { MealChoice(value: $0.rawValue, title: $0.title, selected: $0 == chosen) }
        }
    }

    /// A recent or favourite food, logged again in one tap: its fields (for one serving, with the
    /// amount) go with the Add form.
    struct QuickFood {
        let name: String
        /// "2 × 1 banana · 210 kcal".
        let details: String
        let form: FoodForm
        /// The favourite it is, if it is one.
        let favoriteID: String?

        init(_ food: Food, favorite: FavoriteFood?) {
            name = food.name
            details = ([food.amount].compactMap { $0 } + ["\(NutritionFormat.kcal(food.calories)) kcal"])
                .joined(separator: " · ")
            form = FoodForm(food)
            favoriteID = favorite?.id.lowercased
        }
    }
}
