import Foundation
import GRDB
import KithCore
import Observation

/// The Nutrition app's data on a device (seed 002, docs/nutrition.md), over a `LocalStore`: every
/// change is a local write queued for sync, so the log works offline and before any account exists
/// (the anonymous store). KithCore's `NutritionRules` run inside each write's transaction, exactly
/// as on the server: a day is written only inside the retention window, an item only in a day that
/// exists, a value outside its limits is refused with the field and the reason.
///
/// A SwiftUI view binds to it directly: `today`, `day`, `history`, `meals`, `goal` and
/// `pendingChanges` are observable and kept current after its writes and whenever the store changes
/// otherwise (pulled changes, acknowledged pushes).
@MainActor
@Observable
public final class NutritionStore {
    /// Today in the person's time zone.
    public private(set) var today: LocalDate
    /// The day being shown (today unless `show(_:)` picked another).
    public private(set) var shownDate: LocalDate
    /// The shown day's items and totals against the goal.
    public private(set) var day: DaySummary
    /// The last 30 days' totals, oldest first, for the chart.
    public private(set) var history: [DayTotal] = []
    /// Custom meals, most recently used first.
    public private(set) var meals: [CustomMeal] = []
    public private(set) var goal: NutritionGoal?
    /// Changes made on this device that wait to be synced.
    public private(set) var pendingChanges = 0
    /// Why the state could not be read last time (the device's storage failed), or nil.
    public private(set) var readError: KithError?

    public nonisolated let store: LocalStore
    public let retention: NutritionRetention
    @ObservationIgnored let now: @Sendable () -> Date
    @ObservationIgnored private let refresher = StateRefresher()
    @ObservationIgnored private var following: Task<Void, Never>?

    static let dayEntity = NutritionEntities.day.name
    static let itemEntity = NutritionEntities.item.name
    static let mealEntity = NutritionEntities.meal.name
    static let ingredientEntity = NutritionEntities.ingredient.name
    static let goalEntity = NutritionEntities.goal.name
    nonisolated static let entities = NutritionEntities.all.map(\.name)
    /// How many days the chart shows.
    public static let historyDays = 30

    /// Opens the log and deletes the days that left the retention window since the last launch.
    /// `retention` must match the server's `KITH_NUTRITION_RETENTION_DAYS` (default 90).
    public init(
        store: LocalStore, retention: NutritionRetention = .standard, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.retention = retention
        self.now = now
        let today = LocalDate(now(), in: store.timeZone)
        self.today = today
        shownDate = today
        day = DaySummary(date: today, items: [], goal: nil)
        _ = try? purgeExpired()
        refresher.follow(store.writer, region: LocalStore.region(of: Self.entities), read: { [weak self] in self?.readState() })
    }

    /// Re-reads the observable state (needed only after another `LocalStore` or process wrote the file).
    public func refresh() { refresher.refresh() }

    /// Purges expired days after every pull of `engine` (seed 002 req. 11: "after each sync").
    public func follow(_ engine: SyncEngine) {
        following?.cancel()
        following = Task { [weak self] in
            for await event in await engine.events() {
                guard case .pulled = event else { continue }
                _ = try? self?.purgeExpired()
            }
        }
    }

    // MARK: Days and items

    /// Shows another day; days outside the retention window (and in the future) have nothing to show.
    public func show(_ date: LocalDate) throws {
        let today = LocalDate(now(), in: store.timeZone)
        if retention.isExpired(date, today: today) { throw KithError.invalid(retention.refusal(date)) }
        if date > today {
            throw KithError.invalid(APIErrorDetail(.validationFailed, "\(date) is in the future.", field: "date"))
        }
        shownDate = date
        refresher.refresh()
    }

    /// The day `date` with its items and totals.
    public func summary(of date: LocalDate) throws -> DaySummary { try book().day(date) }

    /// Logs a food on `date` (default today): the day is created with the current goal if it is
    /// the first item of that day.
    @discardableResult
    public func log(_ food: Food, source: FoodSource = .manual, on date: LocalDate? = nil) throws -> FoodItem {
        try writing { transaction in
            let logID = try self.ensureDay(date ?? LocalDate(self.now(), in: self.store.timeZone), transaction)
            let id = try transaction.save(
                Self.itemEntity, fields: NutritionFields.item(day: logID, food: food, source: source, loggedAt: self.now()))
            return try Self.item(id, transaction)
        }
    }

    /// Replaces an item's food and numbers (the day and source stay).
    @discardableResult
    public func editItem(_ id: UUID, food: Food) throws -> FoodItem {
        try writing { transaction in
            _ = try Self.item(id, transaction)
            try transaction.save(Self.itemEntity, id: id, fields: NutritionFields.food(food))
            return try Self.item(id, transaction)
        }
    }

    public func deleteItem(_ id: UUID) throws {
        try writing { transaction in
            _ = try Self.item(id, transaction)
            try transaction.delete(Self.itemEntity, id: id)
        }
    }

    public func item(_ id: UUID) throws -> FoodItem? {
        try store.record(Self.itemEntity, id: id).flatMap { FoodItem(id: $0.id, fields: $0.fields) }
    }

    /// Deletes the days that left the retention window, with their items, as synced deletions
    /// (the server and the other devices delete them too). Returns how many days went.
    @discardableResult
    public func purgeExpired() throws -> Int {
        let today = LocalDate(now(), in: store.timeZone)
        // It runs at every launch and after every pull: a read, and a write only when a day expired.
        guard !retention.expired(try store.records(Self.dayEntity).map(\.syncRecord), today: today).isEmpty else { return 0 }
        return try writing { transaction in
            let expired = self.retention.expired(try transaction.records(Self.dayEntity).map(\.syncRecord), today: today)
            for day in expired { try transaction.delete(Self.dayEntity, id: day.id) }
            return expired.count
        }
    }

    // MARK: Goal

    /// Sets the daily goal (500...50,000 kcal), or clears it with nil. Today's day, if logged,
    /// takes the new goal too (or none); earlier days keep theirs.
    public func setGoal(_ calories: Int64?) throws {
        try writing { transaction in
            // Cleared with null, never deleted: the id is derived, and a deletion would win forever.
            let id = NutritionFields.goalID(scope: self.store.userScope)
            let fields = calories.map { NutritionFields.goal($0, timeZone: self.store.timeZone) } ?? NutritionFields.clearedGoal()
            try transaction.save(Self.goalEntity, id: id, fields: fields)
            let today = LocalDate(self.now(), in: self.store.timeZone)
            let todayID = NutritionFields.dayID(scope: self.store.userScope, date: today)
            if try transaction.record(Self.dayEntity, id: todayID) != nil {
                try transaction.save(Self.dayEntity, id: todayID, fields: NutritionFields.dayGoal(calories))
            }
        }
    }

    // MARK: Custom meals

    @discardableResult
    public func createMeal(name: String, ingredients: [Food]) throws -> CustomMeal {
        if let problem = NutritionEntities.ingredientCountProblem(ingredients.count) { throw KithError.invalid(problem) }
        return try writing { transaction in
            let id = try transaction.save(Self.mealEntity, fields: NutritionFields.meal(name: name, createdAt: self.now()))
            for (position, food) in ingredients.enumerated() {
                try transaction.save(Self.ingredientEntity, fields: NutritionFields.ingredient(meal: id, food: food, position: position))
            }
            return try self.meal(id, transaction)
        }
    }

    /// Deletes a meal and its ingredients; items already logged from it stay.
    public func deleteMeal(_ id: UUID) throws {
        try writing { transaction in
            _ = try self.meal(id, transaction)
            try transaction.delete(Self.mealEntity, id: id)
        }
    }

    /// Logs every ingredient of a meal on `date` (default today), as items from a meal.
    @discardableResult
    public func logMeal(_ id: UUID, on date: LocalDate? = nil) throws -> [FoodItem] {
        try writing { transaction in
            let meal = try self.meal(id, transaction)
            let logID = try self.ensureDay(date ?? LocalDate(self.now(), in: self.store.timeZone), transaction)
            // A millisecond apart, so the day lists them in the meal's order (the same instant
            // would leave their order to their random ids).
            let loggedAt = self.now()
            let items = try meal.ingredients.enumerated().map { index, food in
                let itemID = try transaction.save(
                    Self.itemEntity,
                    fields: NutritionFields.item(
                        day: logID, food: food, source: .meal, loggedAt: loggedAt.addingTimeInterval(Double(index) / 1000)))
                return try Self.item(itemID, transaction)
            }
            try transaction.save(Self.mealEntity, id: id, fields: NutritionFields.used(at: self.now()))
            return items
        }
    }

    // MARK: Plumbing

    /// Every nutrition record of the account as a book.
    public func book() throws -> NutritionBook {
        try store.read { db in try Self.book(self.store, db) }
    }

    nonisolated static func book(_ store: LocalStore, _ db: Database) throws -> NutritionBook {
        NutritionBook(records: try entities.flatMap { try store.records($0, db) }.map(\.syncRecord))
    }

    func writing<Result>(_ body: (LocalTransaction) throws -> Result) throws -> Result {
        let result = try store.write(body)
        refresher.refresh()
        return result
    }

    /// The id of `date`'s day, created (with the current goal) if it is not there yet.
    private func ensureDay(_ date: LocalDate, _ transaction: LocalTransaction) throws -> UUID {
        let id = NutritionFields.dayID(scope: store.userScope, date: date)
        if try transaction.record(Self.dayEntity, id: id) == nil {
            let goal = try transaction.record(Self.goalEntity, id: NutritionFields.goalID(scope: store.userScope))
                .flatMap { NutritionGoal(fields: $0.fields) }
            try transaction.save(Self.dayEntity, id: id, fields: NutritionFields.day(date, goal: goal?.dailyCalories))
        }
        return id
    }

    private static func item(_ id: UUID, _ transaction: LocalTransaction) throws -> FoodItem {
        guard let item = try transaction.record(itemEntity, id: id).flatMap({ FoodItem(id: $0.id, fields: $0.fields) })
        else { throw KithError.invalid(APIErrorDetail(.notFound, "No food item with id \(id.lowercased).")) }
        return item
    }

    /// The meal with its ingredients (the meal's records only, not the whole log).
    private func meal(_ id: UUID, _ transaction: LocalTransaction) throws -> CustomMeal {
        guard let meal = try transaction.record(Self.mealEntity, id: id) else {
            throw KithError.invalid(APIErrorDetail(.notFound, "No meal with id \(id.lowercased)."))
        }
        let key = JSONTree.string(id.lowercased)
        let ingredients = try transaction.records(Self.ingredientEntity).filter { $0["mealId"] == key }
        let records = ([meal] + ingredients).map(\.syncRecord)
        guard let found = NutritionBook(records: records).meals.first else {
            throw KithError.invalid(APIErrorDetail(.notFound, "No meal with id \(id.lowercased)."))
        }
        return found
    }

    private func readState() {
        let read: (book: NutritionBook, pending: Int)
        do {
            read = try store.read { db in (try Self.book(store, db), try Outbox.count(db)) }
        } catch {
            readError = error as? KithError ?? .storage("\(error)")
            return
        }
        readError = nil
        let today = LocalDate(now(), in: store.timeZone)
        let day = read.book.day(shownDate)
        let history = read.book.history(days: Self.historyDays, today: today)
        if self.today != today { self.today = today }
        if self.day != day { self.day = day }
        if self.history != history { self.history = history }
        if meals != read.book.meals { meals = read.book.meals }
        if goal != read.book.goal { goal = read.book.goal }
        if pendingChanges != read.pending { pendingChanges = read.pending }
    }
}
