import ArgumentParser
import Foundation
import KithCore
import KithKit

/// `kith food …`: the calorie log, offline-first and usable before any account exists.
struct FoodCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "food",
        abstract: "The calorie log: what you ate, your daily goal, custom meals, food search.",
        discussion:
            "Works offline and before sign-up against this profile's local data; syncs when signed in and the server answers. ID is an item's id or a unique prefix of it. Days more than 90 days old are deleted.",
        subcommands: [
            Log.self, Day.self, Edit.self, Delete.self, CopyCommand.self, RecentCommand.self, FavoritesCommand.self,
            Goal.self, FoodSearchCommand.self, MealsCommand.self, History.self,
        ]
    )

    /// Runs `body` in a Food session with a sync before and after.
    static func run(_ options: ClientOptions, _ console: Console, _ body: @MainActor (FoodSession) async throws -> Void)
        async throws
    {
        try await FoodSession.run(options, console, body)
    }

    struct Log: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "Log a food you ate.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "What you ate.") var name: String
        @Option(help: "Calories (kcal).") var calories: TypedNumber
        @Option(help: "Protein (g).") var protein: TypedNumber?
        @Option(help: "Carbohydrates (g).") var carbs: TypedNumber?
        @Option(help: "Fat (g).") var fat: TypedNumber?
        @Option(help: "The serving the numbers are for, e.g. \"1 cup\" or \"100 g\".") var serving: String?
        @OptionGroup var portion: Portion

        func run(_ console: Console) async throws {
            try await FoodCommand.run(options, console) { session in
                let (size, unit) = Serving.parse(serving)
                let food = Food(
                    name: name, calories: calories.value, protein: protein?.value, carbs: carbs?.value, fat: fat?.value,
                    servingSize: size,
                    servingUnit: unit)
                let item = try portion.log(food, source: .manual, in: session)
                session.output.emit(item) { FoodText.logged(item) }
            }
        }
    }

    struct Day: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "A day's log with its totals against the goal.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The day (yyyy-MM-dd), default today.") var date: String?

        func run(_ console: Console) async throws {
            try await FoodCommand.run(options, console) { session in
                let summary = try session.nutrition.summary(of: try session.date(date))
                session.output.emit(summary) { FoodText.day(summary) }
            }
        }
    }

    struct Edit: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a logged item: what is given changes, the rest stays (its day too).")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The item's id or a unique prefix of it.") var id: String
        @Option(help: "What you ate.") var name: String?
        @Option(help: "Calories (kcal).") var calories: TypedNumber?
        @Option(help: "Protein (g).") var protein: TypedNumber?
        @Option(help: "Carbohydrates (g).") var carbs: TypedNumber?
        @Option(help: "Fat (g).") var fat: TypedNumber?
        @Option(help: "The serving, e.g. \"1 cup\" or \"150 g\".") var serving: String?
        @Option(help: "How much was eaten: servings, or grams for a food known per 100 g (the numbers scale).")
        var amount: TypedNumber?
        @Option(help: "The meal it was eaten in: breakfast, lunch, dinner or snacks.") var meal: MealOfDay?
        @Option(help: "Clear a number: protein, carbs, fat or serving (repeat for several).")
        var clear: [Clearable] = []

        enum Clearable: String, ExpressibleByArgument, CaseIterable {
            case protein, carbs, fat, serving
        }

        func validate() throws {
            if name == nil, calories == nil, protein == nil, carbs == nil, fat == nil, serving == nil, amount == nil,
                meal == nil, clear.isEmpty
            {
                throw ValidationError(
                    "Say what to change: --name, --calories, --protein, --carbs, --fat, --serving, --amount, --meal or --clear.")
            }
        }

        func run(_ console: Console) async throws {
            try await FoodCommand.run(options, console) { session in
                let item = try session.item(id)
                let was = item.food
                let (size, unit) = serving.map { Serving.parse($0) } ?? (was.servingSize, was.servingUnit)
                let cleared = Set(clear)
                let food = Food(
                    name: name ?? was.name, calories: calories?.value ?? was.calories,
                    protein: cleared.contains(.protein) ? nil : protein?.value ?? was.protein,
                    carbs: cleared.contains(.carbs) ? nil : carbs?.value ?? was.carbs,
                    fat: cleared.contains(.fat) ? nil : fat?.value ?? was.fat,
                    servingSize: cleared.contains(.serving) ? nil : size,
                    servingUnit: cleared.contains(.serving) ? nil : unit, servings: was.servings)
                let saved = try session.nutrition.editItem(
                    item.id, food: try Portion.scale(food, to: amount), meal: meal)
                session.output.emit(saved) { "Saved " + FoodText.line(saved) }
            }
        }
    }

    struct Delete: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a logged item.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The item's id or a unique prefix of it.") var id: String

        func run(_ console: Console) async throws {
            try await FoodCommand.run(options, console) { session in
                let item = try session.item(id)
                try session.nutrition.deleteItem(item.id)
                session.output.emit(["deleted": item.id.lowercased]) { "Deleted \(item.food.name)." }
            }
        }
    }

    struct Goal: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the daily calorie goal, `set N` it (500-50000 kcal) or `clear` it.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "set or clear.") var action: String?
        @Argument(help: "The goal in kcal (with set).") var calories: Int64?

        func run(_ console: Console) async throws {
            try await FoodCommand.run(options, console) { session in
                switch (action, calories) {
                case (nil, nil): break
                case ("set", let calories?): try session.nutrition.setGoal(calories)
                case ("clear", nil): try session.nutrition.setGoal(nil)
                case ("set", nil):
                    throw ValidationError(
                        "`kith food goal set` takes the goal in kcal, e.g. `kith food goal set 2000`.")
                default: throw ValidationError("`kith food goal` takes `set N` or `clear`.")
                }
                let goal = session.nutrition.goal?.dailyCalories
                session.output.emit(["goal": goal]) { goal.map { "Daily goal: \($0) kcal." } ?? "No daily goal set." }
            }
        }
    }

    struct History: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "Each day's calories against the goal, as a chart.")
        @OptionGroup var options: ClientOptions
        @Option(help: "How many days, up to the retention window (default 30).") var days = 30

        func validate() throws {
            guard (1...NutritionRetention.allowedDays.upperBound).contains(days) else {
                throw ValidationError("--days takes 1 to \(NutritionRetention.allowedDays.upperBound).")
            }
        }

        func run(_ console: Console) async throws {
            try await FoodCommand.run(options, console) { session in
                let history = try session.nutrition.book().history(days: days, today: session.nutrition.today)
                session.output.emit(history) { FoodText.chart(history) }
            }
        }
    }
}

/// "1 cup" -> (1, "cup"), "150 g" -> (150, "g"), "slice" -> (nil, "slice").
enum Serving {
    static func parse(_ text: String?) -> (Double?, String?) {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return (nil, nil) }
        let number = text.prefix { $0.isNumber || $0 == "." }
        guard let size = DecimalText.parse(String(number)) else { return (nil, text) }
        let unit = text.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        return (size, unit.isEmpty ? nil : unit)
    }
}
