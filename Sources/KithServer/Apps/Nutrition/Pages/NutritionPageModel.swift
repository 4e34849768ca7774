import Foundation
import KithCore

/// A Food page: Food is the header's current app, and the page loads food.js (which follows
/// `/v1/live` with live.js).
protocol NutritionPageModel: PageModel {}

extension NutritionPageModel {
    var section: WebSection { .food }
    var scripts: PageScripts { .live("food.js") }
}

/// A food's fields' limits (`maxlength`, `min`, `max`), from the entity the form writes: a logged
/// item, or a meal's ingredient.
struct FoodFieldLimits {
    let name: Int
    let calories: InputBounds
    let protein: InputBounds
    let carbs: InputBounds
    let fat: InputBounds
    let servingSize: InputBounds
    let servingUnit: Int
    /// The smallest amount (servings; the server checks the servings a measured amount makes).
    let amountMin = Food.amountText(NutritionEntities.servingsRange.lowerBound)

    init(_ entity: EntityDeclaration) {
        name = entity.maxLength(of: NutritionFields.name)
        calories = entity.bounds(of: NutritionFields.calories)
        protein = entity.bounds(of: NutritionFields.protein)
        carbs = entity.bounds(of: NutritionFields.carbs)
        fat = entity.bounds(of: NutritionFields.fat)
        servingSize = entity.bounds(of: NutritionFields.servingSize)
        servingUnit = entity.maxLength(of: NutritionFields.servingUnit)
    }

    static let item = FoodFieldLimits(NutritionEntities.item)
    static let ingredient = FoodFieldLimits(NutritionEntities.ingredient)
}
