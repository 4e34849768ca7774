import Foundation
import KithCore

/// A food's fields as a form shows them: as typed, or from a stored food (its numbers for one
/// serving, and the amount eaten).
struct FoodForm {
    var name = ""
    var calories = ""
    var protein = ""
    var carbs = ""
    var fat = ""
    var servingSize = ""
    var servingUnit = ""
    /// Servings, or the serving's measure for a measured food ("150" g); empty: one serving.
    var amount = ""

    init() {}

    /// What was typed in each field, by its name (`NutritionPages.foodFields`).
    init(_ value: (String) -> String) {
        name = value(NutritionFields.name)
        calories = value(NutritionFields.calories)
        protein = value(NutritionFields.protein)
        carbs = value(NutritionFields.carbs)
        fat = value(NutritionFields.fat)
        servingSize = value(NutritionFields.servingSize)
        servingUnit = value(NutritionFields.servingUnit)
        amount = value(NutritionPages.amountField)
    }

    init(_ eaten: Food) {
        let food = eaten.perServing
        amount = Food.amountText(eaten.typedAmount)
        name = food.name
        calories = Food.format(food.calories)
        protein = NutritionFormat.field(food.protein)
        carbs = NutritionFormat.field(food.carbs)
        fat = NutritionFormat.field(food.fat)
        servingSize = NutritionFormat.field(food.servingSize)
        servingUnit = food.servingUnit ?? ""
    }
}

/// A refusal next to the food field it is about.
struct FoodErrors: FieldErrors {
    var name: String?
    var calories: String?
    var protein: String?
    var carbs: String?
    var fat: String?
    var servingSize: String?
    var servingUnit: String?
    var amount: String?

    static var fields: [String: WritableKeyPath<Self, String?>] {
        [
            NutritionFields.name: \.name, NutritionFields.calories: \.calories, NutritionFields.protein: \.protein,
            NutritionFields.carbs: \.carbs, NutritionFields.fat: \.fat,
            NutritionFields.servingSize: \.servingSize, NutritionFields.servingUnit: \.servingUnit,
            NutritionPages.amountField: \.amount,
        ]
    }
}
