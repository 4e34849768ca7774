import Foundation
import KithCore

/// The Nutrition app (seed 002) as the web pages use it: the signed-in user's nutrition records read
/// from sync storage, and every change written as a mutation of one more device of theirs through
/// `SyncWriter`, so `NutritionRules` apply exactly as on push and the user's devices are nudged.
struct NutritionService: WritesAsADevice, Sendable {
    let repository: SyncRepository
    let writer: SyncWriter
    let stamps: WebClock
    let clock: Clock
    let ids: IdentifierSource
    /// The days the pages offer; `SyncWriter`'s rules enforce the same window.
    let retention: NutritionRetention

    static let entities = Set(NutritionEntities.all.map(\.name))

    /// The user's days, items, meals and goal.
    func book(for user: AuthenticatedUser) async throws -> NutritionBook {
        NutritionBook(records: try await repository.liveFields(Self.entities, in: Self.scope(of: user)))
    }

    /// The day it is now in `zone`.
    func today(in zone: TimeZone) -> LocalDate { LocalDate(clock.now(), in: zone) }

    /// The days that can be shown and written when it is `today`: the retention window.
    func window(today: LocalDate) -> ClosedRange<LocalDate> { retention.firstKeptDay(today: today)...today }

    // MARK: Items

    /// Logs `food` on `date`, creating the day first (with its derived id and the current goal) when
    /// nothing was logged that day yet. Bad numbers are refused before anything is written.
    @discardableResult
    func logItem(_ food: Food, source: FoodSource, on date: LocalDate, for user: AuthenticatedUser) async throws -> UUID {
        try Self.check(food)
        let day = try await ensureDay(date, for: user)
        let id = ids.uuid()
        let fields = NutritionFields.item(day: day, food: food, source: source, loggedAt: clock.now())
        try await write([upsert(NutritionEntities.item, id, fields, user: user)], user: user)
        return id
    }

    /// One item of the user's, with the date of its day; 404 for anyone else's.
    func item(_ id: UUID, for user: AuthenticatedUser) async throws -> (item: FoodItem, date: LocalDate) {
        let record = try await existing(NutritionEntities.item, id, for: user, what: "That food")
        guard let item = FoodItem(id: id, fields: record.fields) else { throw AppError.notFound("That food") }
        let day = try await existing(NutritionEntities.day, item.logId, for: user, what: "That food's day")
        guard let log = DailyLog(id: day.id, fields: day.fields) else { throw AppError.notFound("That food's day") }
        return (item, log.date)
    }

    /// Changes an item's name and numbers (its day and source stay); the item as it was before.
    @discardableResult
    func editItem(_ id: UUID, to food: Food, for user: AuthenticatedUser) async throws -> (item: FoodItem, date: LocalDate) {
        let before = try await item(id, for: user)
        try Self.check(food)
        let current = try await existing(NutritionEntities.item, id, for: user, what: "That food")
        try await write([upsert(NutritionEntities.item, id, NutritionFields.food(food), after: [current], user: user)], user: user)
        return before
    }

    /// Deletes an item; the item as it was, with its date (the page goes back to that day).
    @discardableResult
    func deleteItem(_ id: UUID, for user: AuthenticatedUser) async throws -> (item: FoodItem, date: LocalDate) {
        let before = try await item(id, for: user)
        let current = try await existing(NutritionEntities.item, id, for: user, what: "That food")
        try await write([delete(NutritionEntities.item, id, after: [current], user: user)], user: user)
        return before
    }

    // MARK: Goal

    /// Sets the daily goal, with the browser's time zone when the page sent one (else the zone
    /// stored before stays). `today`'s day, if logged, takes the new goal: it applies from today.
    func setGoal(_ calories: Int64, timeZone: TimeZone?, today: LocalDate, for user: AuthenticatedUser) async throws {
        var fields = NutritionFields.goal(calories, timeZone: timeZone)
        if timeZone == nil { fields["timeZone"] = nil }
        try await writeGoal(fields, today: today, dayGoal: calories, for: user)
    }

    /// No goal any more; today's day (if logged) has none either. Earlier days keep theirs.
    func clearGoal(today: LocalDate, for user: AuthenticatedUser) async throws {
        try await writeGoal(NutritionFields.clearedGoal(), today: today, dayGoal: nil, for: user)
    }

    private func writeGoal(_ fields: [String: JSONTree], today: LocalDate, dayGoal: Int64?, for user: AuthenticatedUser)
        async throws
    {
        let scope = Self.scope(of: user)
        let id = NutritionFields.goalID(scope: scope)
        let current = try await repository.record(id, in: scope).map { [$0] } ?? []
        try await write([upsert(NutritionEntities.goal, id, fields, after: current, user: user)], user: user)
        let dayID = NutritionFields.dayID(scope: scope, date: today)
        if let day = try await repository.record(dayID, in: scope), !day.isDeleted {
            try await write([upsert(NutritionEntities.day, dayID, NutritionFields.dayGoal(dayGoal), after: [day], user: user)], user: user)
        }
    }

    // MARK: Custom meals

    /// A new meal with its ingredients in order. Every ingredient is checked before anything is
    /// written; the first problem names the ingredient's field (`ingredients.2.calories`).
    @discardableResult
    func createMeal(name: String, ingredients: [Food], for user: AuthenticatedUser) async throws -> UUID {
        let mealFields = NutritionFields.meal(name: name, createdAt: clock.now())
        if let problem = NutritionEntities.meal.problems(in: mealFields, isCreation: true).first {
            throw AppError.validation(APIErrorDetail(code: problem.code, message: Self.mealNameMessage(problem), field: "name"))
        }
        if let problem = NutritionEntities.ingredientCountProblem(ingredients.count) { throw AppError.validation(problem) }
        for (index, food) in ingredients.enumerated() {
            if let problem = NutritionFields.problems(with: food).first {
                throw AppError.validation(
                    APIErrorDetail(
                        code: problem.code, message: "Ingredient \(index + 1): \(problem.message)",
                        field: "ingredients.\(index).\(problem.field ?? "name")"))
            }
        }
        let id = ids.uuid()
        try await write([upsert(NutritionEntities.meal, id, mealFields, user: user)], user: user)
        let parts = ingredients.enumerated().map { index, food in
            upsert(NutritionEntities.ingredient, ids.uuid(), NutritionFields.ingredient(meal: id, food: food, position: index), user: user)
        }
        try await write(parts, user: user)
        return id
    }

    /// One meal of the user's with its ingredients; 404 for anyone else's.
    func meal(_ id: UUID, for user: AuthenticatedUser) async throws -> CustomMeal {
        let meal = try await existing(NutritionEntities.meal, id, for: user, what: "That meal")
        let key = JSONTree.string(id.lowercased)
        let ingredients = try await repository.liveFields([NutritionEntities.ingredient.name], in: Self.scope(of: user))
            .filter { $0.fields["mealId"] == key }
        guard let found = NutritionBook(records: [meal] + ingredients).meals.first else { throw AppError.notFound("That meal") }
        return found
    }

    /// Deletes a meal and (on the server, with the same stamp) its ingredients. Items already logged
    /// from it stay: they are copies.
    @discardableResult
    func deleteMeal(_ id: UUID, for user: AuthenticatedUser) async throws -> CustomMeal {
        let meal = try await meal(id, for: user)
        let current = try await existing(NutritionEntities.meal, id, for: user, what: "That meal")
        try await write([delete(NutritionEntities.meal, id, after: [current], user: user)], user: user)
        return meal
    }

    /// Logs every ingredient of a meal on `date` (one item each, source `meal`) and marks the meal
    /// used now, so it comes first in the list.
    @discardableResult
    func logMeal(_ id: UUID, on date: LocalDate, for user: AuthenticatedUser) async throws -> CustomMeal {
        let meal = try await meal(id, for: user)
        guard !meal.ingredients.isEmpty else {
            throw AppError.validation(APIErrorDetail(.validationFailed, "\(meal.name) has no ingredients to log.", field: "meal"))
        }
        let day = try await ensureDay(date, for: user)
        let now = clock.now()
        // A millisecond apart, so every side lists them in the meal's order (items sort by loggedAt).
        let items = meal.ingredients.enumerated().map { index, food in
            upsert(
                NutritionEntities.item, ids.uuid(),
                NutritionFields.item(day: day, food: food, source: .meal, loggedAt: now.addingTimeInterval(Double(index) / 1000)),
                user: user)
        }
        try await write(items, user: user)
        let current = try await existing(NutritionEntities.meal, id, for: user, what: "That meal")
        try await write([upsert(NutritionEntities.meal, id, NutritionFields.used(at: now), after: [current], user: user)], user: user)
        return meal
    }

    // MARK: Plumbing

    /// The food's numbers against the limits every side checks, before anything is written.
    static func check(_ food: Food) throws {
        if let problem = NutritionFields.problems(with: food).first { throw AppError.validation(problem) }
    }

    private static func mealNameMessage(_ problem: APIErrorDetail) -> String {
        problem.message.hasPrefix("name ") ? "The meal's " + problem.message : problem.message
    }

    /// The id of `date`'s day, written first (with the current goal) when it does not exist yet.
    /// A day outside the retention window is refused here (by `NutritionRules`), before any item.
    private func ensureDay(_ date: LocalDate, for user: AuthenticatedUser) async throws -> UUID {
        let scope = Self.scope(of: user)
        let id = NutritionFields.dayID(scope: scope, date: date)
        if let day = try await repository.record(id, in: scope), !day.isDeleted { return id }
        let goalRecord = try await repository.record(NutritionFields.goalID(scope: scope), in: scope)
        let goal = goalRecord.flatMap { $0.isDeleted ? nil : NutritionGoal(fields: $0.fields) }?.dailyCalories
        try await write([upsert(NutritionEntities.day, id, NutritionFields.day(date, goal: goal), user: user)], user: user)
        return id
    }
}
