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
        name = value("name")
        calories = value("calories")
        protein = value("protein")
        carbs = value("carbs")
        fat = value("fat")
        servingSize = value("servingSize")
        servingUnit = value("servingUnit")
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
            "name": \.name, "calories": \.calories, "protein": \.protein, "carbs": \.carbs, "fat": \.fat,
            "servingSize": \.servingSize, "servingUnit": \.servingUnit,
        ]
    }
}
