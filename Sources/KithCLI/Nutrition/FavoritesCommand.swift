import ArgumentParser
import Foundation
import KithCore
import KithKit

/// `kith food favorites …`: foods kept one tap away with their usual amount.
struct FavoritesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favorites",
        abstract: "Favourite foods: list, add a logged item, log one, remove one.",
        subcommands: [List.self, Add.self, LogFavorite.self, Remove.self],
        defaultSubcommand: List.self
    )

    struct List: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "The favourites, numbered.")
        @OptionGroup var options: ClientOptions

        func run(_ console: Console) async throws {
            try await FoodCommand.run(options, console) { session in
                let favorites = session.nutrition.favorites
                session.output.emit(favorites.map(\.food)) {
                    favorites.isEmpty
                        ? "No favourites yet: `kith food favorites add ID` keeps a logged food."
                        : FoodText.numbered(favorites.map { FoodText.food($0.food) })
                }
            }
        }
    }

    struct Add: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Keep a logged food (with the amount logged) among the favourites.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "A logged item's id or a unique prefix of it.") var id: String

        func run(_ console: Console) async throws {
            try await FoodCommand.run(options, console) { session in
                let favorite = try session.nutrition.addFavorite(try session.item(id).food)
                session.output.emit(favorite.food) { "\(favorite.food.name) is a favourite." }
            }
        }
    }

    struct LogFavorite: ConsoleCommand {
        static let configuration = CommandConfiguration(commandName: "log", abstract: "Log a favourite.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The favourite's number in `kith food favorites`.") var number: Int
        @OptionGroup var portion: Portion

        func run(_ console: Console) async throws {
            try await FoodCommand.run(options, console) { session in
                let favorite = try FoodText.numbered(session.nutrition.favorites, number, kind: "favourites")
                let item = try portion.log(favorite.food, source: .manual, in: session)
                session.output.emit(item) { FoodText.logged(item) }
            }
        }
    }

    struct Remove: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "No longer a favourite (logged food stays).")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The favourite's number in `kith food favorites`.") var number: Int

        func run(_ console: Console) async throws {
            try await FoodCommand.run(options, console) { session in
                let favorite = try FoodText.numbered(session.nutrition.favorites, number, kind: "favourites")
                try session.nutrition.removeFavorite(favorite.id)
                session.output.emit(["removed": favorite.id.lowercased]) {
                    "\(favorite.food.name) is no longer a favourite."
                }
            }
        }
    }
}
