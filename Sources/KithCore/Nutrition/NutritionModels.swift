import Foundation

/// How an item entered the log.
public enum FoodSource: String, Sendable, Codable, CaseIterable {
    /// From a food search (FatSecret, Open Food Facts or the built-in list).
    case search
    /// Typed in by hand.
    case manual
    /// From a custom meal.
    case meal
}

/// A food and its numbers for an amount of it (`servings` of its serving; one when nil): what a
/// search finds, an item logs and an ingredient holds. The numbers are what that amount holds, so
/// a day's total is the sum of its items whatever their amounts (docs/nutrition.md, "Amounts").
public struct Food: Sendable, Equatable, Codable {
    public var name: String
    /// kcal.
    public var calories: Double
    /// Grams, when known.
    public var protein: Double?
    public var carbs: Double?
    public var fat: Double?
    /// "100" and "g", "1" and "cup".
    public var servingSize: Double?
    public var servingUnit: String?
    /// How many servings the numbers are for (2 bananas, 1.5 × 100 g); nil: one.
    public var servings: Double?

    public init(
        name: String, calories: Double, protein: Double? = nil, carbs: Double? = nil, fat: Double? = nil,
        servingSize: Double? = nil, servingUnit: String? = nil, servings: Double? = nil
    ) {
        self.name = name
        self.calories = calories
        self.protein = protein
        self.carbs = carbs
        self.fat = fat
        self.servingSize = servingSize
        self.servingUnit = servingUnit
        self.servings = servings
    }

    /// The food a record's fields hold; nil without a name and calories.
    public init?(fields: [String: JSONTree]) {
        guard let name = fields[NutritionFields.name]?.stringValue,
            let calories = fields[NutritionFields.calories]?.doubleValue
        else { return nil }
        self.init(
            name: name, calories: calories, protein: fields[NutritionFields.protein]?.doubleValue,
            carbs: fields[NutritionFields.carbs]?.doubleValue,
            fat: fields[NutritionFields.fat]?.doubleValue,
            servingSize: fields[NutritionFields.servingSize]?.doubleValue,
            servingUnit: fields[NutritionFields.servingUnit]?.stringValue,
            servings: fields[NutritionFields.servings]?.doubleValue)
    }

    /// "1 cup", "100 g", or nil when the serving is unknown.
    public var serving: String? {
        guard let unit = servingUnit, !unit.isEmpty else { return servingSize.map { Self.format($0) } }
        guard let size = servingSize else { return unit }
        return "\(Self.format(size)) \(unit)"
    }

    /// A number as a person writes it: "2", "2.5".
    public static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(format: "%.1f", number)
    }
}

/// A day of the log.
public struct DailyLog: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var date: LocalDate
    /// The goal that applied that day, when one was set.
    public var goal: Int64?

    public init?(id: UUID, fields: [String: JSONTree]) {
        guard let date = fields[NutritionFields.date]?.stringValue.flatMap(LocalDate.init) else { return nil }
        self.id = id
        self.date = date
        goal = fields[NutritionFields.goal]?.wholeNumber
    }
}

/// One food eaten on a day.
public struct FoodItem: Sendable, Equatable, Identifiable, Encodable {
    @LowercaseUUID public var id: UUID
    @LowercaseUUID public var logId: UUID
    public var food: Food
    public var source: FoodSource
    public var loggedAt: Date
    /// The meal it was logged to; nil for a food logged before meals of the day existed (shown
    /// where the time it was logged falls: `NutritionBook.meal(of:)`).
    public var mealOfDay: MealOfDay?

    public init?(id: UUID, fields: [String: JSONTree]) {
        guard let log = fields[NutritionFields.logId]?.stringValue.flatMap(UUID.init(text:)),
            let food = Food(fields: fields)
        else { return nil }
        _id = LowercaseUUID(wrappedValue: id)
        _logId = LowercaseUUID(wrappedValue: log)
        self.food = food
        source = fields[NutritionFields.source]?.stringValue.flatMap(FoodSource.init(rawValue:)) ?? .manual
        loggedAt = fields[NutritionFields.loggedAt]?.stringValue.flatMap(WireCoding.parseTimestamp) ?? .distantPast
        mealOfDay = fields[NutritionFields.mealOfDay]?.stringValue.flatMap(MealOfDay.init(rawValue:))
    }

    enum CodingKeys: String, CodingKey {
        case id, logId, name, calories, protein, carbs, fat, servingSize, servingUnit, servings, amount, mealOfDay,
            source, loggedAt
    }

    /// Flat, as `kith food day --json` prints it: `{"id","name","calories","protein",…,"servings",
    /// "amount","mealOfDay","source","loggedAt"}` (`servings` 1 when one; `mealOfDay` as logged, or null).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.lowercased, forKey: .id)
        try container.encode(logId.lowercased, forKey: .logId)
        try container.encode(food.name, forKey: .name)
        try container.encode(food.calories, forKey: .calories)
        try container.encode(food.protein, forKey: .protein)
        try container.encode(food.carbs, forKey: .carbs)
        try container.encode(food.fat, forKey: .fat)
        try container.encode(food.servingSize, forKey: .servingSize)
        try container.encode(food.servingUnit, forKey: .servingUnit)
        try container.encode(food.servingCount, forKey: .servings)
        try container.encode(food.amount, forKey: .amount)
        try container.encode(mealOfDay, forKey: .mealOfDay)
        try container.encode(source, forKey: .source)
        try container.encode(WireCoding.formatTimestamp(loggedAt), forKey: .loggedAt)
    }
}

/// A custom meal with its ingredients in their order.
public struct CustomMeal: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var ingredients: [Food]

    public init?(id: UUID, fields: [String: JSONTree], ingredients: [Food]) {
        guard let name = fields[NutritionFields.name]?.stringValue else { return nil }
        self.id = id
        self.name = name
        createdAt = fields[NutritionFields.createdAt]?.stringValue.flatMap(WireCoding.parseTimestamp) ?? .distantPast
        lastUsedAt = fields[NutritionFields.lastUsedAt]?.stringValue.flatMap(WireCoding.parseTimestamp)
        self.ingredients = ingredients
    }

    public var calories: Double { ingredients.reduce(0) { $0 + $1.calories } }
}

/// A food the person marked as a favourite, with the amount they usually eat, logged again in one step.
public struct FavoriteFood: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var food: Food
    public var createdAt: Date

    public init?(id: UUID, fields: [String: JSONTree]) {
        guard let food = Food(fields: fields) else { return nil }
        self.id = id
        self.food = food
        createdAt = fields[NutritionFields.createdAt]?.stringValue.flatMap(WireCoding.parseTimestamp) ?? .distantPast
    }
}

/// The person's daily calorie goal.
public struct NutritionGoal: Sendable, Equatable {
    public var dailyCalories: Int64
    public var timeZone: TimeZone?

    public init?(fields: [String: JSONTree]) {
        guard let calories = fields[NutritionFields.dailyCalories]?.wholeNumber else { return nil }
        dailyCalories = calories
        timeZone = fields[NutritionFields.timeZone]?.stringValue.flatMap(TimeZone.init(identifier:))
    }
}

extension JSONTree {
    /// An integer, also when it arrived written as a whole double (`2000.0`).
    var wholeNumber: Int64? { intValue ?? doubleValue.flatMap { Int64(exactly: $0) } }
}
