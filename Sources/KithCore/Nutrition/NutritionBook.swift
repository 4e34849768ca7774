import Foundation

/// What the Nutrition screens show, computed from an account's records the same way on every side
/// (KithKit's store, the web pages, the CLI): a day with its totals against the goal, the recent
/// history, the custom meals.
public struct NutritionBook: Sendable {
    public let days: [LocalDate: DailyLog]
    /// Each day's items by id of the day, oldest logged first.
    public let items: [UUID: [FoodItem]]
    /// Most recently used first, then by name.
    public let meals: [CustomMeal]
    public let goal: NutritionGoal?

    public init(days: [DailyLog], items: [FoodItem], meals: [CustomMeal], goal: NutritionGoal?) {
        self.days = Dictionary(days.map { ($0.date, $0) }, uniquingKeysWith: { first, _ in first })
        self.items = Dictionary(grouping: items, by: \.logId).mapValues { $0.sorted(by: Self.loggedFirst) }
        self.meals = meals.sorted(by: Self.recentFirst)
        self.goal = goal
    }

    /// The book a set of records makes (records of other entities are ignored).
    public init(records: [SyncRecord]) {
        let byEntity = Dictionary(grouping: records.filter { !$0.isDeleted }, by: \.entity)
        func of(_ entity: EntityDeclaration) -> [SyncRecord] { byEntity[entity.name] ?? [] }
        let ingredients = Dictionary(grouping: of(NutritionEntities.ingredient)) {
            $0.fields[NutritionFields.mealId]?.stringValue ?? ""
        }
        self.init(
            days: of(NutritionEntities.day).compactMap { DailyLog(id: $0.id, fields: $0.fields) },
            items: of(NutritionEntities.item).compactMap { FoodItem(id: $0.id, fields: $0.fields) },
            meals: of(NutritionEntities.meal).compactMap { meal in
                let parts = (ingredients[meal.id.lowercased] ?? [])
                    .sorted {
                        ($0.fields[NutritionFields.position]?.intValue ?? 0)
                            < ($1.fields[NutritionFields.position]?.intValue ?? 0)
                    }
                return CustomMeal(
                    id: meal.id, fields: meal.fields, ingredients: parts.compactMap { Food(fields: $0.fields) })
            },
            goal: of(NutritionEntities.goal).first.flatMap { NutritionGoal(fields: $0.fields) })
    }

    /// One day as a screen shows it; an empty day when nothing was logged.
    public func day(_ date: LocalDate) -> DaySummary {
        let log = days[date]
        let entries = log.map { items[$0.id] ?? [] } ?? []
        return DaySummary(date: date, items: entries, goal: log?.goal ?? goal?.dailyCalories)
    }

    /// The `count` days up to `today`, oldest first, with their totals and goals (for the chart).
    public func history(days count: Int, today: LocalDate) -> [DayTotal] {
        let span = min(max(count, 1), 3_660)
        return (0..<span).reversed().map { back in
            let summary = day(today.adding(days: -back))
            return DayTotal(date: summary.date, calories: summary.totalCalories, goal: summary.goal)
        }
    }

    static func loggedFirst(_ lhs: FoodItem, _ rhs: FoodItem) -> Bool {
        lhs.loggedAt != rhs.loggedAt ? lhs.loggedAt < rhs.loggedAt : lhs.id.lowercased < rhs.id.lowercased
    }

    static func recentFirst(_ lhs: CustomMeal, _ rhs: CustomMeal) -> Bool {
        let left = lhs.lastUsedAt ?? lhs.createdAt
        let right = rhs.lastUsedAt ?? rhs.createdAt
        if left != right { return left > right }
        return lhs.name.localizedStandardCompare(rhs.name) == .orderedAscending
    }
}

/// A day's log with its totals: the shape of `kith food day --json` and of the web page.
public struct DaySummary: Sendable, Equatable, Encodable {
    public let date: LocalDate
    public let items: [FoodItem]
    /// The day's goal (the one set that day, else the current one); nil when none was ever set.
    public let goal: Int64?

    public init(date: LocalDate, items: [FoodItem], goal: Int64?) {
        self.date = date
        self.items = items
        self.goal = goal
    }

    public var totalCalories: Double { items.reduce(0) { $0 + $1.food.calories } }
    public var totalProtein: Double { items.reduce(0) { $0 + ($1.food.protein ?? 0) } }
    public var totalCarbs: Double { items.reduce(0) { $0 + ($1.food.carbs ?? 0) } }
    public var totalFat: Double { items.reduce(0) { $0 + ($1.food.fat ?? 0) } }
    /// Calories left to the goal (negative when over it), counted from the total as every screen
    /// shows it (whole calories), so "968 eaten of 2,000 · 1,032 left" adds up (968.4 and 1,031.6
    /// would each round away from the goal).
    public var remaining: Double? { goal.map { Double($0) - totalCalories.rounded() } }
    /// 0 to 1 and beyond when over; nil without a goal.
    public var progress: Double? { goal.map { $0 > 0 ? totalCalories / Double($0) : 0 } }

    enum CodingKeys: String, CodingKey {
        case date, items, totalCalories, totalProtein, totalCarbs, totalFat, goal, remaining
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encode(items, forKey: .items)
        try container.encode(totalCalories, forKey: .totalCalories)
        try container.encode(totalProtein, forKey: .totalProtein)
        try container.encode(totalCarbs, forKey: .totalCarbs)
        try container.encode(totalFat, forKey: .totalFat)
        // Written as null, not left out, so a reader can tell "no goal" from an older shape.
        try container.encode(goal, forKey: .goal)
        try container.encode(remaining, forKey: .remaining)
    }
}

/// One day's total for the history chart.
public struct DayTotal: Sendable, Equatable, Encodable {
    public let date: LocalDate
    public let calories: Double
    public let goal: Int64?

    public init(date: LocalDate, calories: Double, goal: Int64?) {
        self.date = date
        self.calories = calories
        self.goal = goal
    }
}
