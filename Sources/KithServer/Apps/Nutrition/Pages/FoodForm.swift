import Foundation
import KithCore

/// A food's fields as a form shows them: as typed, or from a stored food.
struct FoodForm {
    var name = ""
    var calories = ""
    var protein = ""
    var carbs = ""
    var fat = ""
    var servingSize = ""
    var servingUnit = ""

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
    }

    init(_ food: Food) {
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

    static var fields: [String: WritableKeyPath<Self, String?>] {
        [
            NutritionFields.name: \.name, NutritionFields.calories: \.calories, NutritionFields.protein: \.protein,
            NutritionFields.carbs: \.carbs, NutritionFields.fat: \.fat,
            NutritionFields.servingSize: \.servingSize, NutritionFields.servingUnit: \.servingUnit,
        ]
    }
}
