import Foundation

/// Every change a person makes in the Nutrition app (docs/nutrition.md), defined once: the device's
/// `NutritionStore` and the server's /food pages both run these (docs/sync.md, "Operations").
/// `NutritionRules` (the retention window, no day in the future, items only in a day that exists)
/// are checked by whoever applies the writes.
public enum NutritionOperations {
    /// What logging on `date` reads: that day and the goal (both ids derive from the account),
    /// and no item but the new ones. An account's 90 days of items are not read to add one.
    static func loggingReads(on date: LocalDate) -> [OperationRead] {
        [
            .only(NutritionEntities.day, derived: { [NutritionFields.dayID(scope: $0, date: date)] }),
            .only(NutritionEntities.goal, derived: { [NutritionFields.goalID(scope: $0)] }),
            .only(NutritionEntities.item),
        ]
    }

    /// What a change to one item reads: the item, and the days (one of them is its day).
    static func itemReads(_ id: UUID) -> [OperationRead] {
        [.only(NutritionEntities.item, id), .all(NutritionEntities.day)]
    }

    /// What a change to one meal reads: the meal and the ingredients (some of them are its own).
    static func mealReads(_ id: UUID) -> [OperationRead] {
        [.only(NutritionEntities.meal, id), .all(NutritionEntities.ingredient)]
    }

    /// Logs `food` on `date`: the day is created first (with its derived id and the current goal)
    /// when nothing was logged that day yet. Bad numbers refuse it before anything is written.
    public static func log(_ food: Food, source: FoodSource = .manual, on date: LocalDate) -> RecordOperation<FoodItem>
    {
        RecordOperation("nutrition.log", reading: loggingReads(on: date)) { (draft) throws(APIErrorDetail) in
            try check(food)
            let day = draft.ensureDay(date)
            let id = draft.create(
                NutritionEntities.item, NutritionFields.item(day: day, food: food, source: source, loggedAt: draft.now))
            return try draft.item(id)
        }
    }

    /// Changes an item's name and numbers (its day and source stay): only what the person changed
    /// from `seen` (what their form showed; nil: every field). The item before and after, and its day.
    public static func editItem(_ id: UUID, to food: Food, seen: Food? = nil) -> RecordOperation<FoodItemEdit> {
        RecordOperation("nutrition.editItem", reading: itemReads(id)) { (draft) throws(APIErrorDetail) in
            try check(food)
            let before = try draft.item(id)
            let seenFields = seen.map(NutritionFields.food)
            let edits = NutritionFields.food(food).sorted { $0.key < $1.key }.map { field, value in
                FieldEdit(field, seen: seenFields.map { $0[field] ?? .null }, value: value)
            }
            let replaced = try draft.edit(NutritionEntities.item, id, edits, what: "That food")
            return FoodItemEdit(
                before: before, after: try draft.item(id), date: try draft.date(of: before), replaced: replaced)
        }
    }

    /// Deletes an item: the item as it was, with its day's date.
    public static func deleteItem(_ id: UUID) -> RecordOperation<(item: FoodItem, date: LocalDate)> {
        RecordOperation("nutrition.deleteItem", reading: itemReads(id)) { (draft) throws(APIErrorDetail) in
            let item = try draft.item(id)
            let date = try draft.date(of: item)
            draft.delete(NutritionEntities.item, id)
            return (item, date)
        }
    }

    /// A goal out of range, in the words of the form's label (every surface says it so).
    public static let goalOutOfRange = APIErrorDetail(
        .validationFailed,
        "The daily goal must be between \(NutritionFieldWords.grouped(Double(NutritionEntities.goalRange.lowerBound))) "
            + "and \(NutritionFieldWords.grouped(Double(NutritionEntities.goalRange.upperBound))) calories.",
        field: NutritionFields.dailyCalories)

    /// Sets the daily goal, or clears it (nil). `timeZone` is the person's (nil: the one stored
    /// before stays). `today`'s day, if logged, takes the new goal: it applies from today; earlier
    /// days keep theirs. The goal is cleared with null, never deleted: its id is derived, and a
    /// deletion would win forever.
    public static func setGoal(_ calories: Int64?, timeZone: TimeZone?, today: LocalDate) -> RecordOperation<Void> {
        RecordOperation("nutrition.setGoal", reading: loggingReads(on: today)) { (draft) throws(APIErrorDetail) in
            if let calories, !NutritionEntities.goalRange.contains(calories) { throw goalOutOfRange }
            var fields = calories.map { NutritionFields.goal($0, timeZone: timeZone) } ?? NutritionFields.clearedGoal()
            if calories != nil, timeZone == nil { fields[NutritionFields.timeZone] = nil }
            draft.upsert(NutritionEntities.goal, NutritionFields.goalID(scope: draft.scope), fields)
            let dayID = NutritionFields.dayID(scope: draft.scope, date: today)
            if draft.record(NutritionEntities.day, dayID) != nil {
                draft.upsert(NutritionEntities.day, dayID, NutritionFields.dayGoal(calories))
            }
        }
    }

    /// A new meal with its ingredients in order. Every ingredient is checked before anything is
    /// written; the first problem names the ingredient's field (`ingredients.2.calories`).
    public static func createMeal(name: String, ingredients: [Food]) -> RecordOperation<CustomMeal> {
        RecordOperation(
            "nutrition.createMeal", reading: [.only(NutritionEntities.meal), .all(NutritionEntities.ingredient)]
        ) { (draft) throws(APIErrorDetail) in
            let fields = NutritionFields.meal(name: name, createdAt: draft.now)
            if let problem = NutritionEntities.meal.problems(in: fields, isCreation: true).first {
                let message = problem.message.hasPrefix("name ") ? "The meal's " + problem.message : problem.message
                throw APIErrorDetail(code: problem.code, message: message, field: NutritionFields.name)
            }
            if let problem = NutritionEntities.ingredientCountProblem(ingredients.count) { throw problem }
            for (index, food) in ingredients.enumerated() {
                if let problem = NutritionFields.problems(with: food).first {
                    throw APIErrorDetail(
                        code: problem.code, message: "Ingredient \(index + 1): \(problem.message)",
                        field: "ingredients.\(index).\(problem.field ?? NutritionFields.name)")
                }
            }
            let id = draft.create(NutritionEntities.meal, fields)
            for (position, food) in ingredients.enumerated() {
                _ = draft.create(
                    NutritionEntities.ingredient, NutritionFields.ingredient(meal: id, food: food, position: position))
            }
            return try draft.meal(id)
        }
    }

    /// Deletes a meal and its ingredients; items already logged from it stay (they are copies).
    public static func deleteMeal(_ id: UUID) -> RecordOperation<CustomMeal> {
        RecordOperation("nutrition.deleteMeal", reading: mealReads(id)) { (draft) throws(APIErrorDetail) in
            let meal = try draft.meal(id)
            draft.delete(NutritionEntities.meal, id)
            return meal
        }
    }

    /// Logs every ingredient of a meal on `date` (one item each, source `meal`, a millisecond apart
    /// so every side lists them in the meal's order) and marks the meal used now, so it comes first.
    public static func logMeal(_ id: UUID, on date: LocalDate) -> RecordOperation<(meal: CustomMeal, items: [FoodItem])>
    {
        RecordOperation("nutrition.logMeal", reading: mealReads(id) + loggingReads(on: date)) {
            (draft) throws(APIErrorDetail) in
            let meal = try draft.meal(id)
            guard !meal.ingredients.isEmpty else {
                throw APIErrorDetail(.validationFailed, "\(meal.name) has no ingredients to log.", field: "meal")
            }
            let day = draft.ensureDay(date)
            let ids = meal.ingredients.enumerated().map { index, food in
                draft.create(
                    NutritionEntities.item,
                    NutritionFields.item(
                        day: day, food: food, source: .meal,
                        loggedAt: draft.now.addingTimeInterval(Double(index) / 1000)))
            }
            draft.upsert(NutritionEntities.meal, id, NutritionFields.used(at: draft.now))
            return (meal, try ids.map { (id) throws(APIErrorDetail) in try draft.item(id) })
        }
    }

    /// Deletes the days that left the retention window on `today`, with their items: how many days went.
    public static func purgeExpired(_ retention: NutritionRetention, today: LocalDate) -> RecordOperation<Int> {
        RecordOperation("nutrition.purgeExpired", reads: [NutritionEntities.day]) { (draft) throws(APIErrorDetail) in
            let expired = retention.expired(draft.syncRecords([NutritionEntities.day]), today: today)
            for day in expired { draft.delete(NutritionEntities.day, day.id) }
            return expired.count
        }
    }

    /// The food's numbers against the limits every side checks.
    static func check(_ food: Food) throws(APIErrorDetail) {
        if let problem = NutritionFields.problems(with: food).first { throw problem }
    }
}

/// An item's edit: the item before and after, its day's date, and what it replaced that someone
/// else had changed since the person saw it.
public struct FoodItemEdit: Sendable, Equatable {
    public let before: FoodItem
    public let after: FoodItem
    public let date: LocalDate
    public let replaced: [ReplacedValue]
}

extension OperationDraft {
    /// The id of `date`'s day, created (with the current goal) if it is not there yet.
    mutating func ensureDay(_ date: LocalDate) -> UUID {
        let id = NutritionFields.dayID(scope: scope, date: date)
        if record(NutritionEntities.day, id) == nil {
            let goal = record(NutritionEntities.goal, NutritionFields.goalID(scope: scope))
                .flatMap(NutritionGoal.init(fields:))?.dailyCalories
            upsert(NutritionEntities.day, id, NutritionFields.day(date, goal: goal))
        }
        return id
    }

    func item(_ id: UUID) throws(APIErrorDetail) -> FoodItem {
        guard let item = record(NutritionEntities.item, id).flatMap({ FoodItem(id: id, fields: $0) }) else {
            throw OperationRefusal.notFound("That food")
        }
        return item
    }

    func date(of item: FoodItem) throws(APIErrorDetail) -> LocalDate {
        guard let day = record(NutritionEntities.day, item.logId).flatMap({ DailyLog(id: item.logId, fields: $0) })
        else {
            throw OperationRefusal.notFound("That food's day")
        }
        return day.date
    }

    /// The meal with its ingredients.
    func meal(_ id: UUID) throws(APIErrorDetail) -> CustomMeal {
        guard let fields = record(NutritionEntities.meal, id) else { throw OperationRefusal.notFound("That meal") }
        var meal = SyncRecord(entity: NutritionEntities.meal.name, id: id, scope: scope)
        meal.fields = fields
        let key = JSONTree.string(id.lowercased)
        let ingredients = syncRecords([NutritionEntities.ingredient]).filter {
            $0.fields[NutritionFields.mealId] == key
        }
        guard let found = NutritionBook(records: [meal] + ingredients).meals.first else {
            throw OperationRefusal.notFound("That meal")
        }
        return found
    }
}
