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
    /// Oldest first.
    public let favorites: [FavoriteFood]

    public init(
        days: [DailyLog], items: [FoodItem], meals: [CustomMeal], goal: NutritionGoal?, favorites: [FavoriteFood] = []
    ) {
        self.days = Dictionary(days.map { ($0.date, $0) }, uniquingKeysWith: { first, _ in first })
        self.items = Dictionary(grouping: items, by: \.logId).mapValues { $0.sorted(by: Self.loggedFirst) }
        self.meals = meals.sorted(by: Self.recentFirst)
        self.goal = goal
        self.favorites = favorites.sorted {
            $0.createdAt != $1.createdAt ? $0.createdAt < $1.createdAt : $0.id.lowercased < $1.id.lowercased
        }
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
            goal: of(NutritionEntities.goal).first.flatMap { NutritionGoal(fields: $0.fields) },
            favorites: of(NutritionEntities.favorite).compactMap { FavoriteFood(id: $0.id, fields: $0.fields) })
    }

    /// One day as a screen shows it; an empty day when nothing was logged.
    public func day(_ date: LocalDate) -> DaySummary {
        let log = days[date]
        let entries = log.map { items[$0.id] ?? [] } ?? []
        return DaySummary(date: date, items: entries, goal: log?.goal ?? goal?.dailyCalories, meal: meal(of:))
    }

    /// The meal an item is shown in: the one it was logged to, else the one its time of logging
    /// falls in, in the zone of the person's goal (UTC without one).
    public func meal(of item: FoodItem) -> MealOfDay {
        item.mealOfDay ?? MealOfDay.usual(at: item.loggedAt, in: goal?.timeZone ?? .gmt)
    }

    /// The foods logged lately, newest first, each once (`Food.isSameFood`) with the amount last
    /// eaten: what a person logs again in one tap.
    public func recentFoods(limit: Int = 10) -> [Food] {
        var found: [Food] = []
        for item in items.values.joined().sorted(by: { !Self.loggedFirst($0, $1) }) {
            guard found.count < limit else { break }
            if !found.contains(where: { $0.isSameFood(as: item.food) }) { found.append(item.food) }
        }
        return found
    }

    /// The favourite that is the same food as `food`, if there is one.
    public func favorite(matching food: Food) -> FavoriteFood? {
        favorites.first { $0.food.isSameFood(as: food) }
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
    /// The day's meals in their order, each with its items; a meal with nothing in it is left out.
    public let meals: [MealSection]

    /// `meal` says which meal each item is shown in (`NutritionBook.meal(of:)`).
    public init(date: LocalDate, items: [FoodItem], goal: Int64?, meal: (FoodItem) -> MealOfDay = { $0.mealOfDay ?? .snacks }) {
        self.date = date
        self.items = items
        self.goal = goal
        let grouped = Dictionary(grouping: items, by: meal)
        meals = MealOfDay.allCases.compactMap { part in grouped[part].map { MealSection(meal: part, items: $0) } }
    }

    /// The items of one meal (none when nothing was eaten in it).
    public func items(in meal: MealOfDay) -> [FoodItem] { meals.first { $0.meal == meal }?.items ?? [] }

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
        case date, items, meals, totalCalories, totalProtein, totalCarbs, totalFat, goal, remaining
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encode(items, forKey: .items)
        try container.encode(meals, forKey: .meals)
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

/// One meal of a day: its items in the order logged, and their total.
public struct MealSection: Sendable, Equatable, Encodable {
    public let meal: MealOfDay
    public let items: [FoodItem]

    public var totalCalories: Double { items.reduce(0) { $0 + $1.food.calories } }

    enum CodingKeys: String, CodingKey { case meal, itemIds, totalCalories }

    /// `{"meal":"breakfast","itemIds":[…],"totalCalories":…}`: the items themselves are the day's `items`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(meal, forKey: .meal)
        try container.encode(items.map(\.id.lowercased), forKey: .itemIds)
        try container.encode(totalCalories, forKey: .totalCalories)
    }
}
