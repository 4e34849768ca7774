import Foundation

/// The Nutrition app's synced entities (docs/nutrition.md) with DOMAINS.md's limits, checked
/// by server and devices alike. Rules across records (a day's id, the retention window, items only in a
/// day that exists, ingredients only in a meal that exists) are `NutritionRules`.
public enum NutritionEntities {
    /// Calories of one item (kcal).
    public static let caloriesRange: ClosedRange<Double> = 0...50_000
    /// Protein, carbohydrates or fat of one item (grams).
    public static let macroRange: ClosedRange<Double> = 0...10_000
    /// A daily calorie goal (kcal).
    public static let goalRange: ClosedRange<Int64> = 500...50_000
    /// How an item entered the log.
    public static let sources = ["search", "manual", "meal"]
    /// How many ingredients a custom meal holds (devices and the web pages check it before writing).
    public static let ingredientsPerMeal: ClosedRange<Int> = 1...30

    /// Why a meal of `count` ingredients can't be made (field `ingredients`), or nil.
    public static func ingredientCountProblem(_ count: Int) -> APIErrorDetail? {
        if count < ingredientsPerMeal.lowerBound {
            return APIErrorDetail(
                .validationFailed, "Add at least one ingredient, with its name and calories.", field: "ingredients")
        }
        if count > ingredientsPerMeal.upperBound {
            return APIErrorDetail(
                .validationFailed, "A meal has at most \(ingredientsPerMeal.upperBound) ingredients.",
                field: "ingredients")
        }
        return nil
    }

    /// One day of one person's log. Its id is derived from the account and the date
    /// (`NutritionFields.dayID`), so two devices logging the same day offline write the same record.
    public static let day = EntityDeclaration(
        name: "nutrition.day", scope: .user,
        fields: [
            FieldDeclaration(NutritionFields.date, .localDate),
            // The goal that applied that day, kept so history compares against what it was then.
            FieldDeclaration(NutritionFields.goal, .integer(goalRange), optional: true),
        ])

    /// The fields a food's numbers take, shared by logged items and a meal's ingredients.
    static let foodFields = [
        FieldDeclaration(NutritionFields.name, .string(maxLength: 200)),
        FieldDeclaration(NutritionFields.calories, .number(caloriesRange)),
        FieldDeclaration(NutritionFields.protein, .number(macroRange), optional: true),
        FieldDeclaration(NutritionFields.carbs, .number(macroRange), optional: true),
        FieldDeclaration(NutritionFields.fat, .number(macroRange), optional: true),
        FieldDeclaration(NutritionFields.servingSize, .number(0...100_000), optional: true),
        FieldDeclaration(NutritionFields.servingUnit, .string(maxLength: 30), optional: true),
        // How many servings the numbers are for (absent: one); the numbers are the amount's.
        FieldDeclaration(NutritionFields.servings, .number(servingsRange), optional: true),
    ]

    /// How many servings one item or ingredient is.
    public static let servingsRange: ClosedRange<Double> = 0.01...10_000

    /// One food eaten on a day. Items are records of their own, so two devices adding to the same
    /// day offline end with the union.
    public static let item = EntityDeclaration(
        name: "nutrition.item", scope: .user,
        fields: [FieldDeclaration(NutritionFields.logId, .uuid)] + foodFields + [
            FieldDeclaration(NutritionFields.source, .choice(sources)),
            FieldDeclaration(NutritionFields.loggedAt, .timestamp),
            // Optional: items logged before meals of the day existed have none.
            FieldDeclaration(NutritionFields.mealOfDay, .choice(MealOfDay.allCases.map(\.rawValue)), optional: true),
        ])

    /// A food the person keeps one tap away, with its usual amount.
    public static let favorite = EntityDeclaration(
        name: "nutrition.favorite", scope: .user,
        fields: foodFields + [FieldDeclaration(NutritionFields.createdAt, .timestamp)])

    /// A meal the person put together once and logs again in one step.
    public static let meal = EntityDeclaration(
        name: "nutrition.meal", scope: .user,
        fields: [
            FieldDeclaration(NutritionFields.name, .string(maxLength: 100)),
            FieldDeclaration(NutritionFields.createdAt, .timestamp),
            FieldDeclaration(NutritionFields.lastUsedAt, .timestamp, optional: true),
        ])

    /// One ingredient of a custom meal, with its own numbers; a record of its own like an item.
    public static let ingredient = EntityDeclaration(
        name: "nutrition.ingredient", scope: .user,
        fields: [FieldDeclaration(NutritionFields.mealId, .uuid)] + foodFields + [
            FieldDeclaration(NutritionFields.position, .integer(0...1_000))
        ])

    /// The person's daily goal: one record per account (`NutritionFields.goalID`). `timeZone` is the
    /// zone of the device that last set it, so the server's retention purge counts days as the
    /// person does. A cleared goal is `dailyCalories` null, not a deletion: the record's id is
    /// derived from the account and deletion wins, so a deleted goal could never be set again.
    public static let goal = EntityDeclaration(
        name: "nutrition.goal", scope: .user,
        fields: [
            FieldDeclaration(NutritionFields.dailyCalories, .integer(goalRange), optional: true),
            FieldDeclaration(NutritionFields.timeZone, .string(maxLength: 64), optional: true),
        ])

    public static let all = [day, item, meal, ingredient, goal, favorite]
}
