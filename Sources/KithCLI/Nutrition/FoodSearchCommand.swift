import ArgumentParser
import Foundation
import KithCore
import KithKit

/// `kith food search TEXT`: the server's food search (FatSecret, Open Food Facts, its built-in list),
/// or this device's built-in list when offline or signed out; `--log N` logs the Nth food found.
struct FoodSearchCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Search foods; --log N logs the Nth one found.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "What to look for, e.g. \"banana\" or \"chicken breast\".") var text: String
    @Option(help: "How many foods (1-50, default 20).") var limit = FoodSearchLimits.defaultLimit
    @Option(help: "Log the food with this number (1 is the first found).") var log: Int?
    @OptionGroup var portion: Portion

    func validate() throws {
        if let problem = FoodSearchLimits.problem(withLimit: limit) { throw ValidationError(problem.message) }
        if let log, log < 1 { throw ValidationError("--log takes the number of a food found, from 1.") }
    }

    func run(_ console: Console) async throws {
        try await FoodCommand.run(options, console) { session in
            let found = try await FoodSearcher(client: session.device.client).search(text, limit: limit)
            if let reason = found.fallbackReason, !session.output.json {
                session.output.note("Searched this device's built-in list: \(reason.userMessage)")
            }
            if let log {
                guard found.foods.indices.contains(log - 1) else {
                    throw KithError.invalid(
                        APIErrorDetail(.notFound, "The search found \(found.foods.count) foods; there is no number \(log)."))
                }
                let item = try portion.log(found.foods[log - 1], source: .search, in: session)
                session.output.emit(item) { FoodText.logged(item) }
                return
            }
            let answer = FoodSearchResponse(source: found.source, foods: found.foods)
            session.output.emit(answer) {
                found.foods.isEmpty
                    ? "No food found for \"\(text)\"."
                    : (["From \(found.source.rawValue):"]
                        + found.foods.enumerated().map { index, food in "\(index + 1). " + FoodText.food(food) })
                        .joined(separator: "\n")
            }
        }
    }
}
