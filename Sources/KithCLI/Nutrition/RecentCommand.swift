import ArgumentParser
import Foundation
import KithCore
import KithKit

/// `kith food recent [--log N]`: the foods logged lately, each once with its last amount; `--log N`
/// logs the Nth again.
struct RecentCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "recent", abstract: "The foods you logged lately; --log N logs the Nth again.")
    @OptionGroup var options: ClientOptions
    @Option(help: "Log the food with this number (1 is the most recent).") var log: Int?
    @OptionGroup var portion: Portion

    func run(_ console: Console) async throws {
        try await FoodCommand.run(options, console) { session in
            let foods = try session.nutrition.book().recentFoods()
            if let log {
                let item = try portion.log(try FoodText.numbered(foods, log, kind: "recent foods"), source: .manual, in: session)
                session.output.emit(item) { FoodText.logged(item) }
                return
            }
            session.output.emit(foods) {
                foods.isEmpty ? "Nothing logged lately." : FoodText.numbered(foods.map(FoodText.food))
            }
        }
    }
}
