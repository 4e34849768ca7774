import Foundation
import KithCore
import Testing

/// Meals of the day, copying, favourites, recent foods and editing a custom meal, as every side runs them.
@Suite("Nutrition shortcuts")
struct NutritionShortcutsTests {
    static let today = LocalDate("2026-11-28")!
    static var yesterday: LocalDate { today.adding(days: -1) }

    @Test("a day's items are shown by meal, each meal with its total; an item without a meal goes by its time")
    func sectionsByMeal() throws {
        var bench = OperationBench()
        _ = try bench.run(NutritionOperations.log(Food(name: "Oats", calories: 150), on: Self.today, meal: .breakfast))
        _ = try bench.run(NutritionOperations.log(Food(name: "Soup", calories: 200), on: Self.today, meal: .lunch))
        _ = try bench.run(NutritionOperations.log(Food(name: "Toast", calories: 90), on: Self.today, meal: .breakfast))
        let day = NutritionBook(records: bench.syncRecords).day(Self.today)
        #expect(day.meals.map(\.meal) == [.breakfast, .lunch])
        #expect(day.items(in: .breakfast).map(\.food.name) == ["Oats", "Toast"])
        #expect(day.meals.map(\.totalCalories) == [240, 200] && day.totalCalories == 440)
        #expect(day.items(in: .dinner).isEmpty)
    }

    @Test("copying yesterday's breakfast logs its foods again today, in breakfast, with their amounts")
    func copyYesterdaysBreakfast() throws {
        var bench = OperationBench()
        let twoEggs = Food(name: "Egg", calories: 78, servingSize: 1, servingUnit: "egg").scaled(toServings: 2)
        _ = try bench.run(NutritionOperations.log(twoEggs, on: Self.yesterday, meal: .breakfast))
        _ = try bench.run(NutritionOperations.log(Food(name: "Pasta", calories: 600), on: Self.yesterday, meal: .dinner))
        let (copied, _) = try bench.run(NutritionOperations.copy(from: Self.yesterday, meal: .breakfast, to: Self.today))
        #expect(copied.map(\.food.name) == ["Egg"] && copied[0].food.calories == 156 && copied[0].food.servings == 2)
        let today = NutritionBook(records: bench.syncRecords).day(Self.today)
        #expect(today.items(in: .breakfast).count == 1 && today.totalCalories == 156)
        #expect(NutritionBook(records: bench.syncRecords).day(Self.yesterday).items.count == 2, "the day copied from stays")
    }

    @Test("copying a whole day copies every meal; copying nothing is refused and writes nothing")
    func copyAWholeDay() throws {
        var bench = OperationBench()
        _ = try bench.run(NutritionOperations.log(Food(name: "Oats", calories: 150), on: Self.yesterday, meal: .breakfast))
        _ = try bench.run(NutritionOperations.log(Food(name: "Pasta", calories: 600), on: Self.yesterday, meal: .dinner))
        let (copied, _) = try bench.run(NutritionOperations.copy(from: Self.yesterday, meal: nil, to: Self.today))
        #expect(copied.map(\.mealOfDay) == [.breakfast, .dinner])
        let before = bench.syncRecords.count
        #expect(throws: APIErrorDetail.self) {
            try bench.run(NutritionOperations.copy(from: Self.yesterday, meal: .lunch, to: Self.today))
        }
        #expect(bench.syncRecords.count == before)
    }

    @Test("recent foods are each food once, newest first, with the amount last eaten")
    func recentFoods() throws {
        var bench = OperationBench()
        let banana = Food(name: "Banana", calories: 105, servingSize: 1, servingUnit: "medium")
        _ = try bench.run(NutritionOperations.log(banana, on: Self.yesterday, meal: .breakfast))
        _ = try bench.run(NutritionOperations.log(Food(name: "Tea", calories: 2), on: Self.yesterday, meal: .snacks))
        bench.advance(seconds: 60)
        _ = try bench.run(NutritionOperations.log(banana.scaled(toServings: 2), on: Self.today, meal: .snacks))
        let recent = NutritionBook(records: bench.syncRecords).recentFoods()
        #expect(recent.map(\.name) == ["Banana", "Tea"] && recent[0].servings == 2)
    }

    @Test("a favourite is kept once: the same food again takes the new amount; removing it leaves the log")
    func favorites() throws {
        var bench = OperationBench()
        let banana = Food(name: "Banana", calories: 105, servingSize: 1, servingUnit: "medium")
        let (first, _) = try bench.run(NutritionOperations.addFavorite(banana))
        let (again, _) = try bench.run(NutritionOperations.addFavorite(banana.scaled(toServings: 2)))
        #expect(again.id == first.id && again.food.servings == 2)
        #expect(NutritionBook(records: bench.syncRecords).favorites.count == 1)
        _ = try bench.run(NutritionOperations.removeFavorite(first.id))
        #expect(NutritionBook(records: bench.syncRecords).favorites.isEmpty)
        #expect(throws: APIErrorDetail.self) { try bench.run(NutritionOperations.removeFavorite(first.id)) }
    }

    @Test("a custom meal is edited after it is made: name, ingredients and amounts; logging it is one operation")
    func editACustomMeal() throws {
        var bench = OperationBench()
        let egg = Food(name: "Egg", calories: 78, servingSize: 1, servingUnit: "egg")
        let (meal, _) = try bench.run(
            NutritionOperations.createMeal(name: "Breakfast", ingredients: [Food(name: "Oats", calories: 150), egg]))
        let (edited, _) = try bench.run(
            NutritionOperations.editMeal(
                meal.id, name: "Big breakfast", ingredients: [egg.scaled(toServings: 3), Food(name: "Juice", calories: 110)]))
        #expect(edited.name == "Big breakfast" && edited.ingredients.map(\.name) == ["Egg", "Juice"])
        #expect(edited.calories == 344 && edited.ingredients[0].amount == "3 × 1 egg")
        #expect(bench.fields(NutritionEntities.ingredient).count == 2, "the old ingredients are gone")
        let (logged, writes) = try bench.run(NutritionOperations.logMeal(meal.id, on: Self.today, in: .breakfast))
        #expect(logged.items.map(\.food.calories) == [234, 110] && logged.items.allSatisfy { $0.mealOfDay == .breakfast })
        #expect(writes.filter { $0.entity == NutritionEntities.item.name }.count == 2)
        #expect(throws: APIErrorDetail.self) {
            try bench.run(NutritionOperations.editMeal(meal.id, name: "Empty", ingredients: []))
        }
        #expect(NutritionBook(records: bench.syncRecords).meals.first?.name == "Big breakfast", "a refused edit changes nothing")
    }
}
