import Foundation
import KithCore

/// A logged food's page (food-item.mustache): the food, and the form that edits it (what was
/// typed and the refusal, after one).
struct NutritionItemModel: NutritionPageModel {
    static let template = "food-item"

    let item: FoodItemRow
    /// The day it was logged on, `yyyy-MM-dd`, and in words.
    let date: String
    let dateText: String
    var form: FoodForm
    /// The food as the page loaded it: sent back with the form (`seen.…`), so a save writes only
    /// what the person changed (docs/sync.md, "A write says what it saw").
    var seen: FoodForm
    var errors: FoodErrors?
    /// A refusal that names none of the fields.
    var error: String?
    let limits = FoodFieldLimits.item
    /// The meal it is in, as choices; the one the page showed goes back with the form (`seen.mealOfDay`).
    let mealChoices: [NutritionDayModel.MealChoice]
    let seenMeal: String

    init(_ item: FoodItem, on date: LocalDate, meal: MealOfDay) {
        self.item = FoodItemRow(item)
        self.date = date.description
        dateText = NutritionFormat.long(date)
        form = FoodForm(item.food)
        seen = form
        mealChoices = NutritionDayModel.MealChoice.all(choosing: meal)
        seenMeal = (item.mealOfDay ?? meal).rawValue
    }
}
