import ArgumentParser
import Foundation
import KithCore
import KithKit

extension ContactsCommand {
    struct Countries: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "The countries an address may have: code, name, and what their forms call the postal code and the region.",
            discussion: "From the cache, else the server; with neither, the ISO 3166 list.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var monica: MonicaOptions
        @Argument(help: "Only the countries whose code or name contains this.") var filter: String?

        func run(_ console: Console) async throws {
            try await ContactsCommand.run(options, monica, console) { session in
                var countries = try await session.book.countries().map(CountryJSON.init)
                if let filter = filter?.trimmingCharacters(in: .whitespaces), !filter.isEmpty {
                    countries = countries.filter {
                        $0.code.caseInsensitiveCompare(filter) == .orderedSame
                            || $0.name.range(of: filter, options: [.caseInsensitive, .diacriticInsensitive]) != nil
                    }
                }
                session.output.emit(countries) { Self.text(countries) }
            }
        }

        static func text(_ countries: [CountryJSON]) -> String {
            guard !countries.isEmpty else { return "No such country." }
            let nameWidth = countries.map(\.name.count).max() ?? 0
            let postalWidth = countries.map(\.postalCodeLabel.count).max() ?? 0
            return countries.map { country in
                let name = country.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                let postal = country.postalCodeLabel.padding(toLength: postalWidth, withPad: " ", startingAt: 0)
                return "\(country.code)  \(name)  \(postal)  \(country.regionLabel)"
            }.joined(separator: "\n")
        }
    }
}
