import Foundation
import KithCore

/// The Nutrition app's records as the /food pages read them (the signed-in user's, from sync
/// storage). The pages make changes as `NutritionOperations`, through `OperationWriter`, so
/// `NutritionRules` apply exactly as on push and the user's devices are nudged.
struct NutritionService: Sendable {
    let repository: SyncRepository
    let clock: Clock
    /// The days the pages offer; `SyncWriter`'s rules enforce the same window.
    let retention: NutritionRetention

    static let entities = Set(NutritionEntities.all.map(\.name))

    /// The user's days, items, meals and goal.
    func book(for user: AuthenticatedUser) async throws -> NutritionBook {
        NutritionBook(records: try await repository.liveFields(Self.entities, in: user.scope))
    }

    /// The day it is now in `zone`.
    func today(in zone: TimeZone) -> LocalDate { LocalDate(clock.now(), in: zone) }

    /// The meal it is time for now in `zone`: where a new food goes unless the person chooses.
    func mealNow(in zone: TimeZone) -> MealOfDay { MealOfDay.usual(at: clock.now(), in: zone) }

    /// The days that can be shown and written when it is `today`: the retention window.
    func window(today: LocalDate) -> ClosedRange<LocalDate> { retention.firstKeptDay(today: today)...today }

    // MARK: Items

    /// One item of the user's, with the date of its day; 404 for anyone else's.
    func item(_ id: UUID, for user: AuthenticatedUser) async throws -> (item: FoodItem, date: LocalDate) {
        let record = try await existing(NutritionEntities.item, id, for: user, what: "That food")
        guard let item = FoodItem(id: id, fields: record.fields) else { throw AppError.notFound("That food") }
        let day = try await existing(NutritionEntities.day, item.logId, for: user, what: "That food's day")
        guard let log = DailyLog(id: day.id, fields: day.fields) else { throw AppError.notFound("That food's day") }
        return (item, log.date)
    }

    // MARK: Custom meals

    /// One meal of the user's with its ingredients; 404 for anyone else's.
    func meal(_ id: UUID, for user: AuthenticatedUser) async throws -> CustomMeal {
        let meal = try await existing(NutritionEntities.meal, id, for: user, what: "That meal")
        let key = JSONTree.string(id.lowercased)
        let ingredients = try await repository.liveFields([NutritionEntities.ingredient.name], in: user.scope)
            .filter { $0.fields[NutritionFields.mealId] == key }
        guard let found = NutritionBook(records: [meal] + ingredients).meals.first else {
            throw AppError.notFound("That meal")
        }
        return found
    }

    // MARK: Plumbing

    /// The live record `id` of `entity` in the user's scope; 404 otherwise.
    private func existing(_ entity: EntityDeclaration, _ id: UUID, for user: AuthenticatedUser, what: String)
        async throws
        -> SyncRecord
    {
        guard let record = try await repository.record(id, in: user.scope), record.entity == entity.name,
            !record.isDeleted
        else { throw AppError.notFound(what) }
        return record
    }
}
