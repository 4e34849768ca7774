import Foundation

/// The fields each Nutrition change writes, built the same way wherever the change is made (a
/// device's store, the web pages, the server's purge), so a record looks alike whoever wrote it.
public enum NutritionFields {
    // The records' field names, spelled once; the web forms' fields have the same names.
    public static let date = "date"
    public static let goal = "goal"
    public static let name = "name"
    public static let calories = "calories"
    public static let protein = "protein"
    public static let carbs = "carbs"
    public static let fat = "fat"
    public static let servingSize = "servingSize"
    public static let servingUnit = "servingUnit"
    public static let servings = "servings"
    public static let mealOfDay = "mealOfDay"
    public static let logId = "logId"
    public static let source = "source"
    public static let loggedAt = "loggedAt"
    public static let createdAt = "createdAt"
    public static let lastUsedAt = "lastUsedAt"
    public static let mealId = "mealId"
    public static let position = "position"
    public static let dailyCalories = "dailyCalories"
    public static let timeZone = "timeZone"

    /// A day's id: the same on every device of the account, so two devices logging the same day
    /// offline write one record (the original app made two).
    public static func dayID(scope: String, date: LocalDate) -> UUID {
        StableUUID.make(from: "nutrition.day \(scope) \(date)")
    }

    /// The account's one goal record.
    public static func goalID(scope: String) -> UUID { StableUUID.make(from: "nutrition.goal \(scope)") }

    /// The entities whose ids derive from the account: days (with their date) and the goal.
    public static let identities = [
        DerivedIdentity(entity: NutritionEntities.day.name) { scope, fields in
            fields[NutritionFields.date]?.stringValue.flatMap(LocalDate.init).map { dayID(scope: scope, date: $0) }
        },
        DerivedIdentity(entity: NutritionEntities.goal.name) { scope, _ in goalID(scope: scope) },
    ]

    public static func day(_ date: LocalDate, goal: Int64?) -> [String: JSONTree] {
        var fields: [String: JSONTree] = [NutritionFields.date: .string(date.description)]
        if let goal { fields[NutritionFields.goal] = .int(goal) }
        return fields
    }

    /// A food's numbers as fields (name trimmed; absent numbers written as null so an edit clears them).
    public static func food(_ food: Food) -> [String: JSONTree] {
        func number(_ value: Double?) -> JSONTree { value.map(JSONTree.double) ?? .null }
        return [
            NutritionFields.name: .string(food.name.trimmedWhitespace),
            NutritionFields.calories: .double(food.calories), NutritionFields.protein: number(food.protein),
            NutritionFields.carbs: number(food.carbs),
            NutritionFields.fat: number(food.fat), NutritionFields.servingSize: number(food.servingSize),
            NutritionFields.servingUnit: .nullable(food.servingUnit), NutritionFields.servings: number(food.servings),
        ]
    }

    /// An item's fields; `meal` nil for an item that says none (as a device from before meals of
    /// the day writes it: it is shown by the time it was logged).
    public static func item(day: UUID, food: Food, source: FoodSource, meal: MealOfDay? = nil, loggedAt: Date)
        -> [String: JSONTree]
    {
        var fields = Self.food(food)
        fields[NutritionFields.logId] = .string(day.lowercased)
        if let meal { fields[NutritionFields.mealOfDay] = .string(meal.rawValue) }
        fields[NutritionFields.source] = .string(source.rawValue)
        fields[NutritionFields.loggedAt] = .string(WireCoding.formatTimestamp(loggedAt))
        return fields
    }

    public static func meal(name: String, createdAt: Date) -> [String: JSONTree] {
        [
            NutritionFields.name: .string(name.trimmedWhitespace),
            NutritionFields.createdAt: .string(WireCoding.formatTimestamp(createdAt)),
        ]
    }

    public static func ingredient(meal: UUID, food: Food, position: Int) -> [String: JSONTree] {
        var fields = Self.food(food)
        fields[NutritionFields.mealId] = .string(meal.lowercased)
        fields[NutritionFields.position] = .int(Int64(position))
        return fields
    }

    public static func favorite(_ food: Food, createdAt: Date) -> [String: JSONTree] {
        var fields = Self.food(food)
        fields[NutritionFields.createdAt] = .string(WireCoding.formatTimestamp(createdAt))
        return fields
    }

    public static func used(at time: Date) -> [String: JSONTree] {
        [NutritionFields.lastUsedAt: .string(WireCoding.formatTimestamp(time))]
    }

    public static func goal(_ dailyCalories: Int64, timeZone: TimeZone?) -> [String: JSONTree] {
        [NutritionFields.dailyCalories: .int(dailyCalories), NutritionFields.timeZone: .nullable(timeZone?.identifier)]
    }

    /// No goal any more (the record stays, so a goal can be set again: see `NutritionEntities.goal`).
    public static func clearedGoal() -> [String: JSONTree] { [NutritionFields.dailyCalories: .null] }

    /// A day's goal changed (set or cleared) on that day.
    public static func dayGoal(_ goal: Int64?) -> [String: JSONTree] { [NutritionFields.goal: .nullable(goal)] }

    /// The problems with a food's numbers, checked before anything is written (the same limits the
    /// server checks): the first names the field and why.
    public static func problems(with food: Food) -> [APIErrorDetail] {
        NutritionEntities.item.problems(in: Self.food(food), isCreation: false).map(NutritionFieldWords.worded)
    }
}
