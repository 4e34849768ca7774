import Foundation
import KithCore
import Testing

@Suite("Nutrition operations")
struct NutritionOperationsTests {
    static let today = LocalDate("2026-11-28")!

    @Test("logging a meal is one operation: the day, every ingredient in order, and the meal marked used")
    func loggingAMealIsOneOperation() throws {
        var bench = OperationBench()
        _ = try bench.run(
            NutritionOperations.setGoal(2000, timeZone: TimeZone(identifier: "Europe/Paris"), today: Self.today))
        let (meal, _) = try bench.run(
            NutritionOperations.createMeal(
                name: "Breakfast", ingredients: [Food(name: "Oats", calories: 150), Food(name: "Milk", calories: 60)]))
        let (logged, writes) = try bench.run(NutritionOperations.logMeal(meal.id, on: Self.today, in: .lunch))
        #expect(writes.map(\.entity) == ["nutrition.day", "nutrition.item", "nutrition.item", "nutrition.meal"])
        #expect(logged.items.map(\.food.name) == ["Oats", "Milk"])
        #expect(bench.fields(NutritionEntities.day).first?["goal"] == .int(2000), "the day takes the goal")
    }

    @Test("logging a food reads its day and the goal, not the account's other days and items")
    func loggingReadsItsDayAndTheGoal() throws {
        var bench = OperationBench()
        let today = LocalDate(year: 2026, month: 11, day: 24)!
        _ = try bench.run(NutritionOperations.setGoal(2000, timeZone: nil, today: today))
        for offset in 1...3 {
            _ = try bench.run(NutritionOperations.log(Food(name: "Tea", calories: 2), on: today.adding(days: -offset), meal: .snacks))
        }
        let log = NutritionOperations.log(Food(name: "Apple", calories: 95), on: today, meal: .snacks)
        #expect(log.wholeReads.isEmpty)
        #expect(
            log.recordReads(in: bench.scope)[NutritionEntities.day.name]
                == [NutritionFields.dayID(scope: bench.scope, date: today)])
        let (apple, writes) = try bench.run(log)
        #expect(writes.map(\.entity) == [NutritionEntities.day.name, NutritionEntities.item.name])
        let day = try #require(bench.records[NutritionEntities.day.name]?[apple.logId])
        #expect(day["goal"] == .int(2000), "the new day takes the goal it read")
    }

    @Test("a meal's bad ingredient refuses the meal, naming the ingredient's field")
    func aBadIngredientRefusesTheMeal() throws {
        var bench = OperationBench()
        #expect(throws: APIErrorDetail.self) {
            try bench.run(
                NutritionOperations.createMeal(
                    name: "Lunch", ingredients: [Food(name: "Soup", calories: 100), Food(name: "Bread", calories: -5)]))
        }
        do {
            _ = try bench.run(
                NutritionOperations.createMeal(
                    name: "Lunch", ingredients: [Food(name: "Soup", calories: 100), Food(name: "Bread", calories: -5)]))
        } catch {
            #expect(error.field == "ingredients.1.calories")
        }
        #expect(bench.fields(NutritionEntities.meal).isEmpty && bench.fields(NutritionEntities.ingredient).isEmpty)
    }

    @Test("an item's edit keeps a number another writer changed that this person left alone")
    func anItemEditKeepsTheOtherChange() throws {
        var bench = OperationBench()
        let (item, _) = try bench.run(NutritionOperations.log(Food(name: "Banana", calories: 100), on: Self.today, meal: .breakfast))
        _ = try bench.run(NutritionOperations.editItem(item.id, to: Food(name: "Banana", calories: 105, protein: 1)))
        let (edit, _) = try bench.run(
            NutritionOperations.editItem(item.id, to: Food(name: "Big banana", calories: 100), seen: item.food))
        #expect(edit.after.food.name == "Big banana" && edit.after.food.calories == 105 && edit.after.food.protein == 1)
        #expect(edit.replaced.isEmpty && edit.date == Self.today)
    }
}
