import Foundation

/// The fields each Nutrition change writes, built the same way wherever the change is made (a
/// device's store, the web pages, the server's purge), so a record looks alike whoever wrote it.
public enum NutritionFields {
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
            fields["date"]?.stringValue.flatMap(LocalDate.init).map { dayID(scope: scope, date: $0) }
        },
        DerivedIdentity(entity: NutritionEntities.goal.name) { scope, _ in goalID(scope: scope) },
    ]

    public static func day(_ date: LocalDate, goal: Int64?) -> [String: JSONTree] {
        var fields: [String: JSONTree] = ["date": .string(date.description)]
        if let goal { fields["goal"] = .int(goal) }
        return fields
    }

    /// A food's numbers as fields (name trimmed; absent numbers written as null so an edit clears them).
    public static func food(_ food: Food) -> [String: JSONTree] {
        func number(_ value: Double?) -> JSONTree { value.map(JSONTree.double) ?? .null }
        return [
            "name": .string(food.name.trimmedWhitespace),
            "calories": .double(food.calories), "protein": number(food.protein), "carbs": number(food.carbs),
            "fat": number(food.fat), "servingSize": number(food.servingSize),
            "servingUnit": .nullable(food.servingUnit),
        ]
    }

    public static func item(day: UUID, food: Food, source: FoodSource, loggedAt: Date) -> [String: JSONTree] {
        var fields = Self.food(food)
        fields["logId"] = .string(day.lowercased)
        fields["source"] = .string(source.rawValue)
        fields["loggedAt"] = .string(WireCoding.formatTimestamp(loggedAt))
        return fields
    }

    public static func meal(name: String, createdAt: Date) -> [String: JSONTree] {
        [
            "name": .string(name.trimmedWhitespace),
            "createdAt": .string(WireCoding.formatTimestamp(createdAt)),
        ]
    }

    public static func ingredient(meal: UUID, food: Food, position: Int) -> [String: JSONTree] {
        var fields = Self.food(food)
        fields["mealId"] = .string(meal.lowercased)
        fields["position"] = .int(Int64(position))
        return fields
    }

    public static func used(at time: Date) -> [String: JSONTree] {
        ["lastUsedAt": .string(WireCoding.formatTimestamp(time))]
    }

    public static func goal(_ dailyCalories: Int64, timeZone: TimeZone?) -> [String: JSONTree] {
        ["dailyCalories": .int(dailyCalories), "timeZone": .nullable(timeZone?.identifier)]
    }

    /// No goal any more (the record stays, so a goal can be set again: see `NutritionEntities.goal`).
    public static func clearedGoal() -> [String: JSONTree] { ["dailyCalories": .null] }

    /// A day's goal changed (set or cleared) on that day.
    public static func dayGoal(_ goal: Int64?) -> [String: JSONTree] { ["goal": .nullable(goal)] }

    /// The problems with a food's numbers, checked before anything is written (the same limits the
    /// server checks): the first names the field and why.
    public static func problems(with food: Food) -> [APIErrorDetail] {
        NutritionEntities.item.problems(in: Self.food(food), isCreation: false)
    }
}
