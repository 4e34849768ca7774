import Foundation
import KithCore
import KithKit

/// `kith-bench nutrition-fill <stores directory> <user id> <days> <items per day>`: a `kith`
/// profile's nutrition log of `days` days up to today with `items per day` items each and a goal,
/// written through `NutritionStore` (so every rule runs) and queued for upload, as a phone that has
/// been used for months would hold. bench/nutrition.py then times a new device's first pull.
@MainActor
func nutritionFill(_ arguments: [String]) throws {
    guard arguments.count == 6, let user = UUID(uuidString: arguments[3]), let days = Int(arguments[4]),
        (1...90).contains(days), let perDay = Int(arguments[5]), (1...200).contains(perDay)
    else {
        FileHandle.standardError.write(
            Data("usage: kith-bench nutrition-fill <stores directory> <user id> <days 1-90> <items per day 1-200>\n".utf8))
        exit(2)
    }
    let directory = LocalStoreDirectory(url: URL(fileURLWithPath: arguments[2]))
    let nutrition = NutritionStore(store: try directory.store(forUser: user))
    try nutrition.setGoal(2_100)
    let foods = BuiltInSample.foods
    for back in (0..<days).reversed() {
        let date = nutrition.today.adding(days: -back)
        for index in 0..<perDay {
            try nutrition.log(foods[(back * perDay + index) % foods.count], source: .manual, on: date)
        }
    }
    print("\(days * perDay) items in \(days) days")
}

/// A few foods with honest numbers (USDA FoodData Central), enough to vary the log.
enum BuiltInSample {
    static let foods = [
        Food(name: "Banana", calories: 105, protein: 1.3, carbs: 27, fat: 0.4, servingSize: 1, servingUnit: "medium"),
        Food(name: "Oatmeal, cooked", calories: 166, protein: 5.9, carbs: 28, fat: 3.6, servingSize: 1, servingUnit: "cup"),
        Food(name: "Egg, boiled", calories: 78, protein: 6.3, carbs: 0.6, fat: 5.3, servingSize: 1, servingUnit: "large"),
        Food(name: "Chicken breast, roasted", calories: 165, protein: 31, carbs: 0, fat: 3.6, servingSize: 100, servingUnit: "g"),
        Food(name: "Brown rice, cooked", calories: 218, protein: 4.5, carbs: 46, fat: 1.6, servingSize: 1, servingUnit: "cup"),
        Food(name: "Apple", calories: 95, protein: 0.5, carbs: 25, fat: 0.3, servingSize: 1, servingUnit: "medium"),
        Food(name: "Whole milk", calories: 149, protein: 7.7, carbs: 12, fat: 7.9, servingSize: 1, servingUnit: "cup"),
    ]
}
