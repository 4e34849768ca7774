import ArgumentParser
import Foundation
import KithCore
import KithKit

/// `kith food meals …`: custom meals, logged in one step.
struct MealsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meals",
        abstract: "Custom meals: list, add, edit, log, delete.",
        subcommands: [List.self, Add.self, Edit.self, LogMeal.self, Delete.self],
        defaultSubcommand: List.self
    )

    static func text(_ meal: CustomMeal) -> String {
        (["\(meal.id.lowercased.prefix(8))  \(meal.name): \(FoodText.kcal(meal.calories))"]
            + meal.ingredients.map { "    " + FoodText.food($0) })
            .joined(separator: "\n")
    }

    struct List: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "The custom meals, most recently used first.")
        @OptionGroup var options: ClientOptions

        func run(_ console: Console) async throws {
            try await FoodCommand.run(options, console) { session in
                let meals = session.nutrition.meals
                session.output.emit(meals.map(MealLine.init)) {
                    meals.isEmpty ? "No custom meals yet." : meals.map(MealsCommand.text).joined(separator: "\n")
                }
            }
        }
    }

    struct Add: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "Create a custom meal from its ingredients.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The meal's name.") var name: String
        @Option(name: .customLong("ingredient"), help: Ingredient.help) var ingredients: [String] = []

        func run(_ console: Console) async throws {
            let foods = try ingredients.map(Ingredient.parse)
            try await FoodCommand.run(options, console) { session in
                let meal = try session.nutrition.createMeal(name: name, ingredients: foods)
                session.output.emit(MealLine(meal)) { "Created " + MealsCommand.text(meal) }
            }
        }
    }

    struct Edit: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rename a meal, or give it new ingredients (all of them, replacing the old ones).")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The meal's name, or its id or a unique prefix of it.") var meal: String
        @Option(help: "The meal's new name.") var name: String?
        @Option(name: .customLong("ingredient"), help: Ingredient.help) var ingredients: [String] = []

        func validate() throws {
            if name == nil, ingredients.isEmpty { throw ValidationError("Say what to change: --name or --ingredient.") }
        }

        func run(_ console: Console) async throws {
            let foods = try ingredients.map(Ingredient.parse)
            try await FoodCommand.run(options, console) { session in
                let found = try session.meal(meal)
                let saved = try session.nutrition.editMeal(
                    found.id, name: name ?? found.name, ingredients: foods.isEmpty ? found.ingredients : foods)
                session.output.emit(MealLine(saved)) { "Saved " + MealsCommand.text(saved) }
            }
        }
    }

    struct LogMeal: ConsoleCommand {
        static let configuration = CommandConfiguration(commandName: "log", abstract: "Log every ingredient of a meal.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The meal's name, or its id or a unique prefix of it.") var meal: String
        @Option(help: "The day (yyyy-MM-dd), default today.") var date: String?
        @Option(name: .customLong("in"), help: "The meal of the day: breakfast, lunch, dinner or snacks. Default: the one it is time for.")
        var part: MealOfDay?

        func run(_ console: Console) async throws {
            try await FoodCommand.run(options, console) { session in
                let found = try session.meal(meal)
                let items = try session.nutrition.logMeal(found.id, on: try session.date(date), in: part)
                session.output.emit(items) {
                    let part = items.first?.mealOfDay.map { " to \($0.rawValue)" } ?? ""
                    return (["Added \(found.name)\(part):"] + items.map { "  " + FoodText.line($0) }).joined(separator: "\n")
                }
            }
        }
    }

    struct Delete: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a custom meal (logged items stay).")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The meal's name, or its id or a unique prefix of it.") var meal: String

        func run(_ console: Console) async throws {
            try await FoodCommand.run(options, console) { session in
                let found = try session.meal(meal)
                try session.nutrition.deleteMeal(found.id)
                session.output.emit(["deleted": found.id.lowercased]) { "Deleted \(found.name)." }
            }
        }
    }
}

/// A meal as `--json` prints it.
struct MealLine: Encodable {
    let id: String
    let name: String
    let calories: Double
    let lastUsedAt: Date?
    let ingredients: [Food]

    init(_ meal: CustomMeal) {
        id = meal.id.lowercased
        name = meal.name
        calories = meal.calories
        lastUsedAt = meal.lastUsedAt
        ingredients = meal.ingredients
    }
}

/// `--ingredient [N x ]NAME=CALORIES[,PROTEIN,CARBS,FAT]`: the numbers are for one serving, and
/// `N x ` says how many servings the meal holds.
enum Ingredient {
    static let help: ArgumentHelp =
        "[N x ]NAME=CALORIES[,PROTEIN,CARBS,FAT] for one serving, once per ingredient (e.g. --ingredient 'Oats=150,5,27,3' --ingredient '2 x Egg=78,6,0.6,5')."

    static func parse(_ text: String) throws -> Food {
        guard let equals = text.lastIndex(of: "=") else {
            throw ValidationError("--ingredient takes [N x ]NAME=CALORIES[,PROTEIN,CARBS,FAT], got \"\(text)\".")
        }
        var name = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
        var servings = 1.0
        let words = name.split(separator: " ", maxSplits: 2)
        if words.count == 3, words[1] == "x" || words[1] == "×", let count = DecimalText.parse(String(words[0])) {
            guard count > 0 else { throw ValidationError("--ingredient \"\(text)\": the number of servings must be more than 0.") }
            servings = count
            name = String(words[2])
        }
        let numbers = text[text.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard !name.isEmpty, (1...4).contains(numbers.count), let calories = DecimalText.parse(numbers[0]) else {
            throw ValidationError("--ingredient takes [N x ]NAME=CALORIES[,PROTEIN,CARBS,FAT], got \"\(text)\".")
        }
        var macros: [Double?] = []
        for part in numbers.dropFirst() {
            let grams = DecimalText.parse(part)
            guard part.isEmpty || grams != nil else {
                throw ValidationError("--ingredient \"\(text)\": \"\(part)\" is not a number of grams.")
            }
            macros.append(grams)
        }
        while macros.count < 3 { macros.append(nil) }
        return Food(name: name, calories: calories, protein: macros[0], carbs: macros[1], fat: macros[2])
            .scaled(toServings: servings)
    }
}
