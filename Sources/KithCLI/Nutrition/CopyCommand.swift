import ArgumentParser
import Foundation
import KithCore
import KithKit

/// `kith food copy FROM [--meal M] [--to DATE]`: logs again what was eaten on another day, or at
/// one of its meals ("yesterday's breakfast").
struct CopyCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy", abstract: "Log again what you ate on another day, or at one of its meals.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The day to copy from (yyyy-MM-dd, or \"yesterday\").") var from: String
    @Option(help: "Only this meal: breakfast, lunch, dinner or snacks.") var meal: MealOfDay?
    @Option(help: "The day to log it on (yyyy-MM-dd), default today.") var to: String?

    func run(_ console: Console) async throws {
        try await FoodCommand.run(options, console) { session in
            let source =
                from.lowercased() == "yesterday" ? session.nutrition.today.adding(days: -1) : try session.date(from)
            let target = try session.date(to)
            let items = try session.nutrition.copy(from: source, meal: meal, to: target)
            session.output.emit(items) {
                let calories = FoodText.kcal(items.reduce(0) { $0 + $1.food.calories })
                let what = meal.map { "\(source)'s \($0.rawValue)" } ?? "everything from \(source)"
                let count = items.count == 1 ? "1 food" : "\(items.count) foods"
                return (["Copied \(what) to \(target): \(count), \(calories)."]
                    + items.map { "  " + FoodText.line($0) }).joined(separator: "\n")
            }
        }
    }
}
