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

    init(_ entity: EntityDeclaration) {
        name = entity.maxLength(of: "name")
        calories = entity.bounds(of: "calories")
        protein = entity.bounds(of: "protein")
        carbs = entity.bounds(of: "carbs")
        fat = entity.bounds(of: "fat")
        servingSize = entity.bounds(of: "servingSize")
        servingUnit = entity.maxLength(of: "servingUnit")
    }

    static let item = FoodFieldLimits(NutritionEntities.item)
    static let ingredient = FoodFieldLimits(NutritionEntities.ingredient)
}
