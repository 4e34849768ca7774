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

    /// Logs `food` (its numbers for the amount eaten) on `date`, in `meal`: the day is created
    /// first (with its derived id and the current goal) when nothing was logged that day yet. Bad
    /// numbers refuse it before anything is written.
    public static func log(_ food: Food, source: FoodSource = .manual, on date: LocalDate, meal: MealOfDay)
        -> RecordOperation<FoodItem>
    {
        RecordOperation("nutrition.log", reading: loggingReads(on: date)) { (draft) throws(APIErrorDetail) in
            try check(food)
            let day = draft.ensureDay(date)
            let id = draft.create(
                NutritionEntities.item,
                NutritionFields.item(day: day, food: food, source: source, meal: meal, loggedAt: draft.now))
            return try draft.item(id)
        }
    }

    /// Changes an item's name, numbers and amount, and its meal when `meal` is given (its day and
    /// source stay): only what the person changed from `seen` and `seenMeal` (what their form
    /// showed; nil: every field). The item before and after, and its day.
    public static func editItem(
        _ id: UUID, to food: Food, meal: MealOfDay? = nil, seen: Food? = nil, seenMeal: MealOfDay? = nil
    ) -> RecordOperation<FoodItemEdit> {
        RecordOperation("nutrition.editItem", reading: itemReads(id)) { (draft) throws(APIErrorDetail) in
            try check(food)
            let before = try draft.item(id)
            let seenFields = seen.map(NutritionFields.food)
            var edits = NutritionFields.food(food).sorted { $0.key < $1.key }.map { field, value in
                FieldEdit(field, seen: seenFields.map { $0[field] ?? .null }, value: value)
            }
            if let meal {
                edits.append(
                    FieldEdit(
                        NutritionFields.mealOfDay, seen: seen.map { _ in .nullable(seenMeal?.rawValue) },
                        value: .string(meal.rawValue)))
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

    /// A new meal with its ingredients in order (each with its amount). Every ingredient is checked
    /// before anything is written; the first problem names the ingredient's field
    /// (`ingredients.2.calories`).
    public static func createMeal(name: String, ingredients: [Food]) -> RecordOperation<CustomMeal> {
        RecordOperation(
            "nutrition.createMeal", reading: [.only(NutritionEntities.meal), .all(NutritionEntities.ingredient)]
        ) { (draft) throws(APIErrorDetail) in
            let fields = NutritionFields.meal(name: name, createdAt: draft.now)
            try checkMeal(fields, ingredients: ingredients, isCreation: true)
            let id = draft.create(NutritionEntities.meal, fields)
            draft.add(ingredients, to: id)
            return try draft.meal(id)
        }
    }

    /// Renames a meal and makes `ingredients` (with their amounts, in order) its ingredients: the
    /// old ones are deleted, the new ones written, all checked first. Items logged from it stay.
    public static func editMeal(_ id: UUID, name: String, ingredients: [Food]) -> RecordOperation<CustomMeal> {
        RecordOperation("nutrition.editMeal", reading: mealReads(id)) { (draft) throws(APIErrorDetail) in
            let fields = [NutritionFields.name: JSONTree.string(name.trimmedWhitespace)]
            try checkMeal(fields, ingredients: ingredients, isCreation: false)
            _ = try draft.meal(id)
            let key = JSONTree.string(id.lowercased)
            for old in draft.syncRecords([NutritionEntities.ingredient]) where old.fields[NutritionFields.mealId] == key {
                draft.delete(NutritionEntities.ingredient, old.id)
            }
            draft.upsert(NutritionEntities.meal, id, fields)
            draft.add(ingredients, to: id)
            return try draft.meal(id)
        }
    }

    /// A meal's name and ingredients against the limits, the first problem named by its field.
    static func checkMeal(_ fields: [String: JSONTree], ingredients: [Food], isCreation: Bool) throws(APIErrorDetail)
    {
        if let problem = NutritionEntities.meal.problems(in: fields, isCreation: isCreation).first {
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
    }

    /// Deletes a meal and its ingredients; items already logged from it stay (they are copies).
    public static func deleteMeal(_ id: UUID) -> RecordOperation<CustomMeal> {
        RecordOperation("nutrition.deleteMeal", reading: mealReads(id)) { (draft) throws(APIErrorDetail) in
            let meal = try draft.meal(id)
            draft.delete(NutritionEntities.meal, id)
            return meal
        }
    }

    /// Logs every ingredient of a meal on `date` in `part` (one item each, source `meal`, a
    /// millisecond apart so every side lists them in the meal's order) and marks the meal used now,
    /// so it comes first.
    public static func logMeal(_ id: UUID, on date: LocalDate, in part: MealOfDay)
        -> RecordOperation<(meal: CustomMeal, items: [FoodItem])>
    {
        RecordOperation("nutrition.logMeal", reading: mealReads(id) + loggingReads(on: date)) {
            (draft) throws(APIErrorDetail) in
            let meal = try draft.meal(id)
            guard !meal.ingredients.isEmpty else {
                throw APIErrorDetail(.validationFailed, "\(meal.name) has no ingredients to log.", field: "meal")
            }
            let items = try draft.logCopies(of: meal.ingredients.map { ($0, FoodSource.meal, part) }, on: date)
            draft.upsert(NutritionEntities.meal, id, NutritionFields.used(at: draft.now))
            return (meal, items)
        }
    }

    /// Logs on `to` again what was eaten on `from` (only in `meal` when given: "copy yesterday's
    /// breakfast"), each food in the meal it was in, with its amount and source. Refused when there
    /// is nothing to copy.
    public static func copy(from: LocalDate, meal: MealOfDay?, to: LocalDate) -> RecordOperation<[FoodItem]> {
        RecordOperation(
            "nutrition.copy",
            // The goal too (an account has one): its zone places items that say no meal.
            reading: [.all(NutritionEntities.day), .all(NutritionEntities.item), .all(NutritionEntities.goal)]
        ) { (draft) throws(APIErrorDetail) in
            let book = NutritionBook(
                records: draft.syncRecords([NutritionEntities.day, NutritionEntities.item, NutritionEntities.goal]))
            let source = book.day(from)
            let copied = meal.map { source.items(in: $0) } ?? source.items
            guard !copied.isEmpty else {
                let what = meal.map { "at \($0.rawValue)" } ?? ""
                throw APIErrorDetail(
                    .validationFailed, "Nothing was eaten \(what)\(what.isEmpty ? "" : " ")on \(from), so there is nothing to copy.",
                    field: NutritionFields.date)
            }
            return try draft.logCopies(of: copied.map { ($0.food, $0.source, book.meal(of: $0)) }, on: to)
        }
    }

    /// Keeps `food` one tap away with its amount; a food already among the favourites takes the new amount.
    public static func addFavorite(_ food: Food) -> RecordOperation<FavoriteFood> {
        RecordOperation("nutrition.addFavorite", reading: [.all(NutritionEntities.favorite)]) {
            (draft) throws(APIErrorDetail) in
            try check(food)
            let book = NutritionBook(records: draft.syncRecords([NutritionEntities.favorite]))
            let id: UUID
            if let known = book.favorite(matching: food) {
                id = known.id
                draft.upsert(NutritionEntities.favorite, id, NutritionFields.food(food))
            } else {
                id = draft.create(NutritionEntities.favorite, NutritionFields.favorite(food, createdAt: draft.now))
            }
            guard let saved = draft.record(NutritionEntities.favorite, id).flatMap({ FavoriteFood(id: id, fields: $0) })
            else { throw OperationRefusal.notFound("That favourite") }
            return saved
        }
    }

    /// No longer a favourite (what was logged from it stays): the favourite as it was.
    public static func removeFavorite(_ id: UUID) -> RecordOperation<FavoriteFood> {
        RecordOperation("nutrition.removeFavorite", reading: [.only(NutritionEntities.favorite, id)]) {
            (draft) throws(APIErrorDetail) in
            guard let favorite = draft.record(NutritionEntities.favorite, id).flatMap({ FavoriteFood(id: id, fields: $0) })
            else { throw OperationRefusal.notFound("That favourite") }
            draft.delete(NutritionEntities.favorite, id)
            return favorite
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

    /// Logs each food on `date` (created if needed) in its meal, a millisecond apart so every side
    /// lists them in this order: the items written.
    mutating func logCopies(of foods: [(Food, FoodSource, MealOfDay)], on date: LocalDate) throws(APIErrorDetail)
        -> [FoodItem]
    {
        let day = ensureDay(date)
        let start = now
        let ids = foods.enumerated().map { index, entry in
            create(
                NutritionEntities.item,
                NutritionFields.item(
                    day: day, food: entry.0, source: entry.1, meal: entry.2,
                    loggedAt: start.addingTimeInterval(Double(index) / 1000)))
        }
        return try ids.map { (id) throws(APIErrorDetail) in try item(id) }
    }

    /// Writes `ingredients` as the meal's, in order.
    mutating func add(_ ingredients: [Food], to meal: UUID) {
        for (position, food) in ingredients.enumerated() {
            _ = create(NutritionEntities.ingredient, NutritionFields.ingredient(meal: meal, food: food, position: position))
        }
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
