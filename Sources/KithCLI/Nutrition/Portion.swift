import ArgumentParser
import Foundation
import KithCore

/// How much of a food is logged, in which meal, on which day: the options every way of logging
/// shares (`food log`, `food search --log`, `food recent --log`, `food favorites log`).
struct Portion: ParsableArguments {
    @Option(help: "How much you ate: servings (2), or grams for a food known per 100 g (150). Default: one serving.")
    var amount: TypedNumber?
    @Option(help: "The meal: breakfast, lunch, dinner or snacks. Default: the one it is time for.")
    var meal: MealOfDay?
    @Option(help: "The day (yyyy-MM-dd), default today.") var date: String?

    /// Logs `food` (its numbers for the amount it says) scaled to `--amount`.
    @MainActor
    func log(_ food: Food, source: FoodSource, in session: FoodSession) throws -> FoodItem {
        try session.nutrition.log(
            try Self.scale(food, to: amount), source: source, on: try session.date(date), meal: meal)
    }

    /// `food` for the typed amount (unchanged without one); refused when it is not a positive number.
    static func scale(_ food: Food, to amount: TypedNumber?) throws -> Food {
        guard let amount else { return food }
        guard let servings = food.servings(forAmount: amount.value) else {
            throw ValidationError("--amount takes how much you ate, more than 0: servings, or grams for a food per 100 g.")
        }
        return food.scaled(toServings: servings)
    }
}

extension MealOfDay: ExpressibleByArgument {}
