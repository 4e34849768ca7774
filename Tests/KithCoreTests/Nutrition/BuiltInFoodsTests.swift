import Foundation
import KithCore
import Testing

/// The built-in food list: big enough, honest (numbers within the limits, calories agreeing with the
/// macros), and searched the way people expect.
@Suite("Built-in foods")
struct BuiltInFoodsTests {
    @Test("at least 300 foods, each name unique even ignoring case and accents")
    func sizeAndUniqueNames() {
        #expect(BuiltInFoods.all.count >= 300)
        let folded = BuiltInFoods.all.map { BuiltInFoodSearch.words(in: $0.name).joined(separator: " ") }
        let duplicates = Dictionary(grouping: folded, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(duplicates.isEmpty, "\(duplicates)")
        let numbers = BuiltInFoods.all.compactMap(\.ndb)
        #expect(Set(numbers).count == numbers.count, "an NDB number is cited twice")
        #expect(numbers.allSatisfy { $0.count == 5 && $0.allSatisfy(\.isNumber) }, "NDB numbers are five digits")
    }

    @Test("every serving passes the limits a logged item is checked with")
    func withinLimits() {
        for food in BuiltInFoods.all {
            for serving in food.servings {
                let problems = NutritionFields.problems(with: serving)
                #expect(problems.isEmpty, "\(food.name) (\(serving.serving ?? "")): \(problems)")
            }
            #expect(food.protein + food.carbs + food.fat + food.alcohol <= 100.5, "\(food.name) weighs more than 100 g")
        }
    }

    @Test("kcal agree with 4 per gram of protein and carbohydrate, 9 of fat, 7 of alcohol")
    func caloriesAgreeWithMacros() {
        func deviation(_ food: BuiltInFood) -> Double {
            abs(food.calories - (4 * food.protein + 4 * food.carbs + 9 * food.fat + 7 * food.alcohol))
        }
        // USDA uses food-specific factors and counts fibre in carbohydrates, so some foods (citrus,
        // kale, vinegar) differ more; a typo in a number differs far more than that.
        let close = BuiltInFoods.all.filter { deviation($0) <= max(10, 0.15 * $0.calories) }
        #expect(Double(close.count) >= 0.95 * Double(BuiltInFoods.all.count))
        for food in BuiltInFoods.all {
            #expect(deviation(food) <= max(20, 0.6 * food.calories), "\(food.name): \(food.calories) kcal")
        }
    }

    @Test("a household serving is scaled from 100 g and rounded as a label is")
    func householdServing() throws {
        let banana = try #require(BuiltInFoods.all.first { $0.name == "Banana, raw" })
        #expect(
            banana.servings == [
                Food(
                    name: "Banana, raw", calories: 105, protein: 1.3, carbs: 27, fat: 0.4, servingSize: 1,
                    servingUnit: "medium (118 g)"),
                Food(
                    name: "Banana, raw", calories: 89, protein: 1.09, carbs: 22.84, fat: 0.33, servingSize: 100,
                    servingUnit: "g"),
            ])
        let chicken = try #require(BuiltInFoods.all.first { $0.name == "Chicken breast, raw, meat only" })
        #expect(chicken.servings.map(\.serving) == ["100 g"])
    }
}

@Suite("Built-in food search")
struct BuiltInFoodSearchTests {
    let search = BuiltInFoodSearch.standard

    func names(_ query: String) -> [String] { search.matches(query).map(\.name) }

    @Test("every word must begin a word of the name, ignoring case and accents")
    func wordPrefixes() {
        #expect(names("JALAPENO") == ["Jalapeño pepper, raw"])
        #expect(names("gruyere") == ["Cheese, gruyère"])
        #expect(
            names("chick bre").prefix(2) == ["Chicken breast, raw, meat only", "Chicken breast, roasted, meat only"])
        #expect(names("chick bre").contains("Chicken breast, fried in batter, with skin"))
        #expect(!names("chick bre").contains { $0.hasPrefix("Chickpeas") }, "bre begins no word of it")
        #expect(names("nana").isEmpty, "inside a word is not a match")
        #expect(names("").isEmpty)
        #expect(names(" ,;- ").isEmpty)
        #expect(names("zzzz").isEmpty)
    }

    @Test("the name itself first, then names beginning with the query, then the rest")
    func ranking() {
        #expect(names("egg white raw").first == "Egg white, raw")
        #expect(names("banana").first == "Banana, raw")
        #expect(names("raw banana") == ["Banana, raw"])
        #expect(names("apple").prefix(3) == ["Apple, raw, with skin", "Apple pie", "Apple juice, unsweetened"])
        #expect(names("apple").contains("Applesauce, unsweetened"))
        #expect(names("egg").prefix(5).allSatisfy { $0.hasPrefix("Egg, ") }, "\(names("egg"))")
        let milk = names("milk")
        let firstOther = milk.firstIndex { !$0.hasPrefix("Milk") } ?? milk.endIndex
        #expect(milk[..<firstOther].count == 4, "\(milk)")
        #expect(milk.first == "Milk, skim (nonfat)", "fewest words first")
        #expect(milk.contains("Goat milk"))
        #expect(!milk.contains("Buttermilk, low fat"))
        #expect(BuiltInFoodSearch.rank(of: "Olive oil", query: "olive OIL") == .exact)
        #expect(BuiltInFoodSearch.rank(of: "Olives, ripe, canned", query: "olives") == .head)
        #expect(BuiltInFoodSearch.rank(of: "Olive oil", query: "olive") == .phrase)
        #expect(BuiltInFoodSearch.rank(of: "Olive oil", query: "olive o") == .phrasePrefix)
        #expect(BuiltInFoodSearch.rank(of: "Olives, ripe, canned", query: "oli can") == .leadingWord)
        #expect(BuiltInFoodSearch.rank(of: "Goat milk", query: "milk") == .wholeWords)
        #expect(BuiltInFoodSearch.rank(of: "Goat milk", query: "mil") == .wordPrefixes)
        #expect(BuiltInFoodSearch.rank(of: "Goat milk", query: "cow") == nil)
    }

    @Test("a search answers at most the limit, each food's household serving before its 100 g")
    func limitAndServings() {
        #expect(search.search("banana", limit: 3).map(\.serving) == ["1 medium (118 g)", "100 g"])
        let apples = search.search("apple", limit: 3)
        #expect(apples.map(\.name) == ["Apple, raw, with skin", "Apple, raw, with skin", "Apple pie"])
        #expect(apples.map(\.serving) == ["1 medium (182 g)", "100 g", "1 slice (125 g)"])
        #expect(search.search("cheese", limit: 7).count == 7)
        #expect(search.search("cheese", limit: 0).isEmpty)
    }

    @Test("the bounds of a query and a limit")
    func bounds() throws {
        #expect(try FoodSearchLimits.checkedQuery("  oats \n").get() == "oats")
        #expect(throws: APIErrorDetail.self) { try FoodSearchLimits.checkedQuery("   ").get() }
        #expect(throws: APIErrorDetail.self) {
            try FoodSearchLimits.checkedQuery(String(repeating: "é", count: 101)).get()
        }
        #expect((try? FoodSearchLimits.checkedQuery(String(repeating: "é", count: 100)).get()) != nil)
        #expect(FoodSearchLimits.problem(withLimit: 0)?.field == "limit")
        #expect(FoodSearchLimits.problem(withLimit: 51)?.field == "limit")
        #expect(FoodSearchLimits.problem(withLimit: 50) == nil)
    }
}
