import Foundation
import KithCore
import Testing

@Suite("Food amounts and meals of the day")
struct FoodAmountTests {
    static let banana = Food(name: "Banana", calories: 105, protein: 1.3, carbs: 27, fat: 0.4, servingSize: 1, servingUnit: "medium")
    static let rice = Food(name: "Rice", calories: 130, protein: 2.7, carbs: 28, fat: 0.3, servingSize: 100, servingUnit: "g")

    @Test("two servings double every number and read as 2 × the serving")
    func twoServings() {
        let two = Self.banana.scaled(toServings: 2)
        #expect(two.calories == 210 && two.protein == 2.6 && two.carbs == 54 && two.fat == 0.8)
        #expect(two.servings == 2 && two.amount == "2 × 1 medium")
        #expect(two.perServing == Self.banana, "one serving again is the food as it was")
    }

    @Test("a food known per 100 g is eaten in grams: 150 g is 1.5 servings, and says 150 g")
    func gramsOfAPer100gFood() throws {
        #expect(Self.rice.isMeasured && Self.rice.amountUnit == "g")
        let servings = try #require(Self.rice.servings(forAmount: 150))
        let eaten = Self.rice.scaled(toServings: servings)
        #expect(eaten.calories == 195 && eaten.amount == "150 g" && eaten.typedAmount == 150)
        #expect(Self.banana.servings(forAmount: 0) == nil && Self.banana.servings(forAmount: -1) == nil)
    }

    @Test("rescaling many times does not drift")
    func rescalingDoesNotDrift() {
        var food = Self.rice
        for count in [3.0, 0.7, 11, 0.33, 1] { food = food.scaled(toServings: count) }
        #expect(food.calories == 130 && food.servings == nil)
    }

    @Test("a food without a serving says its count of servings; one unknown serving says nothing")
    func amountWithoutServing() {
        let tea = Food(name: "Tea", calories: 2)
        #expect(tea.amount == nil && tea.scaled(toServings: 3).amount == "3 servings")
        #expect(tea.scaled(toServings: 0.25).amount == "0.25 servings")
    }

    @Test("the meal it is time for follows the hour in the person's zone")
    func mealByTimeOfDay() throws {
        #expect(MealOfDay.usual(atHour: 7) == .breakfast && MealOfDay.usual(atHour: 12) == .lunch)
        #expect(MealOfDay.usual(atHour: 16) == .snacks && MealOfDay.usual(atHour: 19) == .dinner)
        #expect(MealOfDay.usual(atHour: 23) == .snacks && MealOfDay.usual(atHour: 2) == .snacks)
        let noonUTC = try #require(WireCoding.parseTimestamp("2026-11-28T12:00:00Z"))
        #expect(MealOfDay.usual(at: noonUTC, in: .gmt) == .lunch)
        #expect(MealOfDay.usual(at: noonUTC, in: try #require(TimeZone(identifier: "America/Los_Angeles"))) == .breakfast)
        #expect(MealOfDay.usual(at: noonUTC, in: try #require(TimeZone(identifier: "Asia/Tokyo"))) == .dinner)
    }

    @Test("an amount out of range is refused in the amount's words")
    func amountOutOfRange() {
        let problems = NutritionFields.problems(with: Self.banana.scaled(toServings: 20_000))
        #expect(problems.contains { $0.field == NutritionFields.servings && $0.message == "The amount must be between 0.01 and 10,000 servings." })
    }
}
