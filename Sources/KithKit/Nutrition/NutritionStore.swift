import Foundation
import GRDB
import KithCore
import Observation

/// The Nutrition app's data on a device (docs/nutrition.md), over a `LocalStore`: every
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
    /// The foods logged lately, newest first, each once with its last amount (`NutritionBook.recentFoods`).
    public private(set) var recentFoods: [Food] = []
    /// Foods kept one tap away, oldest first.
    public private(set) var favorites: [FavoriteFood] = []
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
        refresher.follow(
            store.writer, region: LocalStore.region(of: Self.entities), read: { [weak self] in self?.readState() })
    }

    /// Re-reads the observable state (needed only after another `LocalStore` or process wrote the file).
    public func refresh() { refresher.refresh() }

    /// Purges expired days after every pull of `engine` ("after each sync").
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
            throw KithError.invalid(
                APIErrorDetail(.validationFailed, "\(date) is in the future.", field: NutritionFields.date))
        }
        shownDate = date
        refresher.refresh()
    }

    /// The day `date` with its items and totals.
    public func summary(of date: LocalDate) throws -> DaySummary { try book().day(date) }

    /// Logs a food (its numbers for the amount eaten: `Food.scaled(toServings:)`) on `date`
    /// (default today) in `meal` (default: the meal it is time for here, `mealNow`): the day is
    /// created with the current goal if it is the first item of that day.
    @discardableResult
    public func log(_ food: Food, source: FoodSource = .manual, on date: LocalDate? = nil, meal: MealOfDay? = nil)
        throws -> FoodItem
    {
        try apply(NutritionOperations.log(food, source: source, on: date ?? todayHere, meal: meal ?? mealNow))
    }

    /// The meal it is time for where the person is: what a new food goes to unless they choose.
    public var mealNow: MealOfDay { MealOfDay.usual(at: now(), in: store.timeZone) }

    /// Replaces an item's food, numbers and amount, and its meal when given (the day and source stay).
    @discardableResult
    public func editItem(_ id: UUID, food: Food, meal: MealOfDay? = nil) throws -> FoodItem {
        try apply(NutritionOperations.editItem(id, to: food, meal: meal)).after
    }

    /// Logs on `to` (default today) what was eaten on `from`, or only its `meal`: "copy
    /// yesterday's breakfast", "copy a whole day". The items written.
    @discardableResult
    public func copy(from: LocalDate, meal: MealOfDay? = nil, to: LocalDate? = nil) throws -> [FoodItem] {
        try apply(NutritionOperations.copy(from: from, meal: meal, to: to ?? todayHere))
    }

    // MARK: Favourites

    /// Keeps a food (with its amount) among the favourites; the same food again takes the new amount.
    @discardableResult
    public func addFavorite(_ food: Food) throws -> FavoriteFood {
        try apply(NutritionOperations.addFavorite(food))
    }

    public func removeFavorite(_ id: UUID) throws {
        _ = try apply(NutritionOperations.removeFavorite(id))
    }

    public func deleteItem(_ id: UUID) throws {
        _ = try apply(NutritionOperations.deleteItem(id))
    }

    public func item(_ id: UUID) throws -> FoodItem? {
        try store.record(Self.itemEntity, id: id).flatMap { FoodItem(id: $0.id, fields: $0.fields) }
    }

    /// Deletes the days that left the retention window, with their items, as synced deletions
    /// (the server and the other devices delete them too). Returns how many days went.
    @discardableResult
    public func purgeExpired() throws -> Int {
        let today = todayHere
        // It runs at every launch and after every pull: a read, and a write only when a day expired.
        guard !retention.expired(try store.records(Self.dayEntity).map(\.syncRecord), today: today).isEmpty else {
            return 0
        }
        return try apply(NutritionOperations.purgeExpired(retention, today: today))
    }

    // MARK: Goal

    /// Sets the daily goal (500...50,000 kcal), or clears it with nil. Today's day, if logged,
    /// takes the new goal too (or none); earlier days keep theirs.
    public func setGoal(_ calories: Int64?) throws {
        try apply(NutritionOperations.setGoal(calories, timeZone: store.timeZone, today: todayHere))
    }

    // MARK: Custom meals

    @discardableResult
    public func createMeal(name: String, ingredients: [Food]) throws -> CustomMeal {
        try apply(NutritionOperations.createMeal(name: name, ingredients: ingredients))
    }

    /// Renames a meal and replaces its ingredients (with their amounts); items logged from it stay.
    @discardableResult
    public func editMeal(_ id: UUID, name: String, ingredients: [Food]) throws -> CustomMeal {
        try apply(NutritionOperations.editMeal(id, name: name, ingredients: ingredients))
    }

    /// Deletes a meal and its ingredients; items already logged from it stay.
    public func deleteMeal(_ id: UUID) throws {
        _ = try apply(NutritionOperations.deleteMeal(id))
    }

    /// Logs every ingredient of a meal on `date` (default today) in `meal` (default `mealNow`), as
    /// items from a meal.
    @discardableResult
    public func logMeal(_ id: UUID, on date: LocalDate? = nil, in meal: MealOfDay? = nil) throws -> [FoodItem] {
        try apply(NutritionOperations.logMeal(id, on: date ?? todayHere, in: meal ?? mealNow)).items
    }

    // MARK: Plumbing

    /// Every nutrition record of the account as a book.
    public func book() throws -> NutritionBook {
        try store.read { db in try Self.book(self.store, db) }
    }

    nonisolated static func book(_ store: LocalStore, _ db: Database) throws -> NutritionBook {
        NutritionBook(records: try entities.flatMap { try store.records($0, db) }.map(\.syncRecord))
    }

    /// One of the app's operations in one transaction of the store, then the state re-read.
    @discardableResult
    func apply<Output>(_ operation: RecordOperation<Output>) throws -> Output {
        let output = try store.write { transaction in try transaction.apply(operation) }
        refresher.refresh()
        return output
    }

    /// The day it is now where the person is.
    private var todayHere: LocalDate { LocalDate(now(), in: store.timeZone) }

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
        let recent = read.book.recentFoods()
        if recentFoods != recent { recentFoods = recent }
        if favorites != read.book.favorites { favorites = read.book.favorites }
        if goal != read.book.goal { goal = read.book.goal }
        if pendingChanges != read.pending { pendingChanges = read.pending }
    }
}
