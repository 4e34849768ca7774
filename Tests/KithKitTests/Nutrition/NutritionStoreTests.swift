import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithKit

@Suite("Nutrition store")
@MainActor
struct NutritionStoreTests {
    nonisolated static let user = UUID()
    nonisolated static var userScope: String { "user:\(user.uuidString.lowercased())" }
    nonisolated static let paris = TimeZone(identifier: "Europe/Paris")!
    /// 2026-11-24T12:00:00Z: the 24th in Paris.
    nonisolated static let noon = Date(timeIntervalSince1970: 1_795_521_600)

    static func local(scope: String = userScope, now: @escaping @Sendable () -> Date = { noon }) throws -> LocalStore {
        try LocalStore(url: nil, catalog: .kith, userScope: scope, now: now, timeZone: paris)
    }

    nonisolated static let banana = Food(name: "Banana", calories: 105, protein: 1.3, carbs: 27, fat: 0.4, servingSize: 1, servingUnit: "medium")

    @Test func loggingCreatesTheDayOnceAndAddsUpAgainstTheGoal() async throws {
        let clock = TestClock(Self.noon)
        let nutrition = NutritionStore(store: try Self.local(now: { clock.now }), now: { clock.now })
        try nutrition.setGoal(2000)
        try nutrition.log(Self.banana)
        clock.advance(by: 60)
        try nutrition.log(Food(name: "Oats", calories: 150))
        #expect(nutrition.today.description == "2026-11-24")
        #expect(nutrition.day.items.map(\.food.name) == ["Banana", "Oats"])
        #expect(nutrition.day.totalCalories == 255 && nutrition.day.remaining == 1745)
        let days = try nutrition.store.records(NutritionEntities.day.name)
        #expect(days.count == 1, "two items, one day")
        #expect(days.first?.id == NutritionFields.dayID(scope: Self.userScope, date: nutrition.today))
        #expect(nutrition.history.count == NutritionStore.historyDays && nutrition.history.last?.calories == 255)
        #expect(nutrition.pendingChanges == 4, "goal, day and two items wait to be synced")
    }

    @Test func aClearedGoalCanBeSetAgain() async throws {
        let nutrition = NutritionStore(store: try Self.local(), now: { Self.noon })
        try nutrition.setGoal(2000)
        try nutrition.log(Self.banana)
        try nutrition.setGoal(nil)
        #expect(nutrition.goal == nil && nutrition.day.goal == nil, "no goal, today included")
        try nutrition.setGoal(1800)
        #expect(nutrition.goal?.dailyCalories == 1800 && nutrition.day.goal == 1800)
        let deletion = await expectKithError {
            try nutrition.store.delete(NutritionEntities.goal.name, id: NutritionFields.goalID(scope: Self.userScope))
        }
        #expect(deletion?.code == .goalKept && deletion?.identifier == "goal_kept", "deleting the goal record is refused")
    }

    @Test func aRefusedValueSaysWhichFieldAndWritesNothing() async throws {
        let nutrition = NutritionStore(store: try Self.local(), now: { Self.noon })
        let tooMuch = await expectKithError { try nutrition.log(Food(name: "Feast", calories: 50_001)) }
        #expect(tooMuch?.field == "calories")
        #expect(tooMuch?.userMessage == "Calories must be between 0 and 50,000.")
        #expect(await expectKithError { try nutrition.log(Food(name: "Shake", calories: 100, protein: 10_001)) }?.field == "protein")
        #expect(await expectKithError { try nutrition.setGoal(100) }?.field == "dailyCalories")
        #expect(try nutrition.store.records(NutritionEntities.day.name).isEmpty, "not even the day was created")
        #expect(nutrition.pendingChanges == 0)
    }

    @Test func aDayOutsideTheRetentionWindowIsRefusedWithTheReason() async throws {
        let nutrition = NutritionStore(store: try Self.local(), now: { Self.noon })
        let old = try #require(LocalDate("2026-08-25"))
        let refused = await expectKithError { try nutrition.log(Self.banana, on: old) }
        #expect(refused?.userMessage == "2026-08-25 is more than 90 days ago; logs older than that are deleted, so it can't be written.")
        #expect(await expectKithError { try nutrition.show(old) } != nil)
        try nutrition.log(Self.banana, on: try #require(LocalDate("2026-08-26")))
    }

    @Test func expiredDaysArePurgedWithTheirItemsAtLaunchAsSyncedDeletions() async throws {
        let clock = TestClock(Self.noon)
        let store = try Self.local(now: { clock.now })
        let nutrition = NutritionStore(store: store, now: { clock.now })
        try nutrition.setGoal(1800)
        let meal = try nutrition.createMeal(name: "Lunch", ingredients: [Self.banana])
        try nutrition.log(Self.banana, on: try #require(LocalDate("2026-09-01")))
        try nutrition.log(Self.banana)
        clock.advance(by: 10 * 86_400)  // 2026-12-04: September 1st is now 94 days ago.
        let relaunched = NutritionStore(store: store, now: { clock.now })
        #expect(try store.records(NutritionEntities.day.name).count == 1, "the old day went at launch")
        #expect(try store.records(NutritionEntities.item.name).count == 1, "with its item")
        #expect(relaunched.meals.map(\.id) == [meal.id] && relaunched.goal?.dailyCalories == 1800, "meals and goal stay")
        let deletions = try store.pendingBatch(limit: 100, maxBytes: 1 << 20).filter { $0.op == .delete }
        #expect(Set(deletions.map(\.entity)) == [NutritionEntities.day.name, NutritionEntities.item.name])
    }

    @Test func aStoreThatFollowsTheEnginePurgesAfterEachPull() async throws {
        let clock = TestClock(Self.noon)
        let server = FakeSyncService(userID: Self.user)
        let phone = NutritionStore(store: try Self.local(now: { clock.now }), now: { clock.now })
        let laptop = NutritionStore(store: try Self.local(now: { clock.now }), now: { clock.now })
        try phone.log(Self.banana, on: try #require(LocalDate("2026-09-01")))
        let engine = SyncEngine(store: phone.store, service: server)
        try await engine.sync()
        clock.advance(by: 10 * 86_400)  // September 1st is now 94 days ago
        phone.follow(engine)
        try laptop.log(Self.banana)  // something for the phone to pull
        try await SyncEngine(store: laptop.store, service: server).sync()
        try await engine.sync()
        try await eventually { try phone.store.records(NutritionEntities.day.name).count == 1 }
        #expect(try phone.store.records(NutritionEntities.day.name).first?.string("date") == "2026-12-04")
    }

    @Test func mealsLogEveryIngredientAndRememberWhenTheyWereUsed() async throws {
        let nutrition = NutritionStore(store: try Self.local(), now: { Self.noon })
        #expect(await expectKithError { try nutrition.createMeal(name: "Nothing", ingredients: []) }?.field == "ingredients")
        let meal = try nutrition.createMeal(
            name: "Breakfast", ingredients: [Food(name: "Oats", calories: 150, protein: 5), Food(name: "Milk", calories: 60)])
        #expect(meal.ingredients.map(\.name) == ["Oats", "Milk"] && meal.calories == 210)
        let items = try nutrition.logMeal(meal.id)
        #expect(items.map(\.source) == [.meal, .meal])
        #expect(nutrition.day.totalCalories == 210)
        #expect(nutrition.meals.first?.lastUsedAt == Self.noon)
        try nutrition.deleteMeal(meal.id)
        #expect(try nutrition.store.records(NutritionEntities.ingredient.name).isEmpty, "its ingredients went with it")
        #expect(nutrition.day.items.count == 2, "what was logged from it stays")
    }

    @Test func editingAndDeletingAnItem() async throws {
        let nutrition = NutritionStore(store: try Self.local(), now: { Self.noon })
        let item = try nutrition.log(Self.banana)
        var bigger = Self.banana
        bigger.calories = 135
        bigger.protein = nil
        let edited = try nutrition.editItem(item.id, food: bigger)
        #expect(edited.food.calories == 135 && edited.food.protein == nil && edited.source == .manual)
        try nutrition.deleteItem(item.id)
        #expect(nutrition.day.items.isEmpty)
        #expect(await expectKithError { try nutrition.deleteItem(item.id) }?.code == .notFound)
    }

    @Test func twoDevicesLoggingTheSameDayOfflineEndWithOneDayAndBothItems() async throws {
        let server = FakeSyncService(userID: Self.user)
        let phone = NutritionStore(store: try Self.local(), now: { Self.noon })
        let laptop = NutritionStore(store: try Self.local(), now: { Self.noon })
        try phone.log(Food(name: "Apple", calories: 95))
        try laptop.log(Food(name: "Bread", calories: 80))
        for store in [phone.store, laptop.store, phone.store] {
            try await SyncEngine(store: store, service: server).sync()
        }
        phone.refresh()
        laptop.refresh()
        #expect(phone.day.items.map(\.food.name).sorted() == ["Apple", "Bread"])
        #expect(laptop.day.items.map(\.food.name).sorted() == ["Apple", "Bread"])
        #expect(try phone.store.records(NutritionEntities.day.name).count == 1)
        #expect(await server.records.values.filter { $0.entity == NutritionEntities.day.name }.count == 1)
    }

    @Test func everyConflictAPullResolvesIsLoggedAndTheLogIsBounded() async throws {
        let server = FakeSyncService(userID: Self.user)
        let clock = TestClock(Self.noon)
        let phone = NutritionStore(store: try Self.local(now: { clock.now }), now: { clock.now })
        let laptop = NutritionStore(store: try Self.local(now: { clock.now }), now: { clock.now })
        let item = try phone.log(Food(name: "Soup", calories: 200))
        try await SyncEngine(store: phone.store, service: server).sync()
        try await SyncEngine(store: laptop.store, service: server).sync()
        // Both edit the calories offline; the laptop's edit is later.
        try phone.editItem(item.id, food: Food(name: "Soup", calories: 250))
        clock.advance(by: 5)
        try laptop.editItem(item.id, food: Food(name: "Soup", calories: 300))
        try await SyncEngine(store: laptop.store, service: server).sync()
        try await SyncEngine(store: phone.store, service: server).sync()
        let log = try phone.store.conflictLog()
        let entry = try #require(log.first)
        #expect(entry.conflict.entity == NutritionEntities.item.name && entry.conflict.id == item.id)
        #expect(entry.conflict.keptRemote.contains("calories"))
        #expect(entry.summary.hasPrefix("kept from another device: "))
        phone.refresh()
        #expect(phone.day.items.first?.food.calories == 300, "the later write won")

        // A deletion elsewhere of what this device edited is logged too.
        try phone.editItem(item.id, food: Food(name: "Soup", calories: 260))
        try laptop.deleteItem(item.id)
        try await SyncEngine(store: laptop.store, service: server).sync()
        try await SyncEngine(store: phone.store, service: server).sync()
        #expect(try phone.store.conflictLog().first?.conflict.deletedElsewhere == true)

        try await phone.store.writer.write { db in
            for _ in 0..<(ConflictLog.capacity + 20) {
                try ConflictLog.append(entry.conflict, at: Self.noon, db)
            }
        }
        #expect(try phone.store.conflictLog(limit: 10_000).count == ConflictLog.capacity, "bounded")
        try phone.store.clearConflictLog()
        #expect(try phone.store.conflictLog().isEmpty)
    }
}

@Suite("Nutrition store: everyday use")
@MainActor
struct NutritionStoreEverydayTests {
    @Test func amountsMealsCopiesFavouritesAndMealEditsShowInTheStore() async throws {
        let clock = TestClock(NutritionStoreTests.noon)
        let nutrition = NutritionStore(store: try NutritionStoreTests.local(now: { clock.now }), now: { clock.now })
        #expect(nutrition.mealNow == .lunch, "13:00 in Paris")
        let rice = Food(name: "Rice", calories: 130, servingSize: 100, servingUnit: "g")
        let yesterday = nutrition.today.adding(days: -1)
        try nutrition.log(rice.scaled(toServings: try #require(rice.servings(forAmount: 150))), on: yesterday, meal: .dinner)
        try nutrition.log(NutritionStoreTests.banana, on: yesterday, meal: .breakfast)
        clock.advance(by: 60)
        try nutrition.log(Food(name: "Tea", calories: 2))
        #expect(nutrition.day.items(in: .lunch).map(\.food.name) == ["Tea"], "a new food goes to the meal it is time for")

        clock.advance(by: 60)
        let copied = try nutrition.copy(from: yesterday, meal: .dinner)
        #expect(copied.map(\.food.amount) == ["150 g"] && copied.first?.mealOfDay == .dinner)
        #expect(nutrition.day.meals.map(\.meal) == [.lunch, .dinner] && nutrition.day.totalCalories == 197)
        #expect(nutrition.recentFoods.map(\.name) == ["Rice", "Tea", "Banana"])

        let favourite = try nutrition.addFavorite(NutritionStoreTests.banana.scaled(toServings: 2))
        #expect(nutrition.favorites.map(\.food.calories) == [210])
        try nutrition.removeFavorite(favourite.id)
        #expect(nutrition.favorites.isEmpty)

        let meal = try nutrition.createMeal(name: "Snack", ingredients: [Food(name: "Apple", calories: 95)])
        try nutrition.editMeal(meal.id, name: "Snack plate", ingredients: [Food(name: "Apple", calories: 95).scaled(toServings: 2)])
        #expect(nutrition.meals.first?.name == "Snack plate" && nutrition.meals.first?.calories == 190)
        let logged = try nutrition.logMeal(meal.id, in: .snacks)
        #expect(logged.map(\.mealOfDay) == [.snacks] && nutrition.day.items(in: .snacks).count == 1)
    }
}
