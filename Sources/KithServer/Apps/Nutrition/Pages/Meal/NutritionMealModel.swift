import Foundation
import KithCore

/// The meal form (food-meal.mustache), new or editing one: a name and ingredient rows (each with
/// its numbers for one serving and the amount), as typed after a refusal.
struct NutritionMealModel: NutritionPageModel {
    static let template = "food-meal"

    /// The day to go back to, `yyyy-MM-dd`.
    let date: String?
    /// The meal being edited, or nil for a new one.
    let mealID: String?
    let rows: [IngredientRow]
    let maximumIngredients = NutritionEntities.ingredientsPerMeal.upperBound
    /// The meal's name as typed (or stored, when editing one).
    let name: String?
    /// Where the form goes (the meal's own address when editing it), and the page's heading.
    let action: String
    let heading: String
    var nameError: String?
    var error: String?
    let limits = FoodFieldLimits.ingredient
    let nameLimit = NutritionEntities.meal.maxLength(of: NutritionFields.name)

    /// The rows given (what was typed) and at least three, one of them empty; `errors` by row.
    init(
        rows typed: [FoodForm], date: LocalDate?, meal: UUID? = nil, name: String? = nil,
        errors: [Int: FoodErrors] = [:]
    ) {
        var forms = typed
        forms.append(FoodForm())
        while forms.count < 3 { forms.append(FoodForm()) }
        rows = forms.prefix(NutritionEntities.ingredientsPerMeal.upperBound).enumerated().map { index, form in
            IngredientRow(index: index, number: index + 1, form: form, errors: errors[index] ?? FoodErrors())
        }
        self.date = date?.description
        mealID = meal?.lowercased
        self.name = name
        action = meal.map { "/food/meals/\($0.lowercased)" } ?? "/food/meals"
        heading = meal == nil ? "New meal" : "Edit \(name ?? "the meal")"
    }

    struct IngredientRow {
        /// The row's place in the field names (`ingredients.0.name`), and in words from 1.
        let index: Int
        let number: Int
        let form: FoodForm
        let errors: FoodErrors
    }
}
