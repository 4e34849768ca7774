import ArgumentParser
import Foundation
import KithCore
import KithKit

extension OutreachCommand {
    /// `kith outreach year add|rename|delete|use`.
    struct YearCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "year", abstract: "Add, rename, delete or select a year.",
            subcommands: [AddYear.self, RenameYear.self, DeleteYear.self, UseYear.self])

        struct AddYear: ConsoleCommand {
            static let configuration = CommandConfiguration(
                commandName: "add", abstract: "Add a year with an empty list.")
            @OptionGroup var options: ClientOptions
            @Argument(help: "Its name, such as 2027.") var name: String

            func run(_ console: Console) async throws {
                try await OutreachCommand.run(options, console) { session in
                    let year = try session.outreach.addYear(name)
                    session.output.emit(YearLine(year, selected: false)) { "Added \(year.name)." }
                }
            }
        }

        struct RenameYear: ConsoleCommand {
            static let configuration = CommandConfiguration(
                commandName: "rename", abstract: "Rename a year; its people stay.")
            @OptionGroup var options: ClientOptions
            @Argument(help: "The year's name now.") var old: String
            @Argument(help: "Its new name.") var new: String

            func run(_ console: Console) async throws {
                try await OutreachCommand.run(options, console) { session in
                    let year = try session.year(named: old)
                    try session.outreach.renameYear(year.id, to: new)
                    session.output.emit(["renamed": new]) {
                        "Renamed \(year.name) to \(new.trimmingCharacters(in: .whitespaces))."
                    }
                }
            }
        }

        struct DeleteYear: ConsoleCommand {
            static let configuration = CommandConfiguration(
                commandName: "delete", abstract: "Delete a year and all its people.")
            @OptionGroup var options: ClientOptions
            @Argument(help: "The year's name.") var name: String
            @Flag(help: "Confirm: the year and all its people are deleted.") var yes = false

            func validate() throws {
                guard yes else {
                    throw ValidationError("Deleting a year deletes all its people: add --yes to confirm.")
                }
            }

            func run(_ console: Console) async throws {
                try await OutreachCommand.run(options, console) { session in
                    let year = try session.year(named: name)
                    try session.outreach.deleteYear(year.id)
                    let shown = try session.outreach.selectedYear()
                    session.output.emit(["deleted": year.name, "selected": shown.name]) {
                        "Deleted \(year.name) and its people. Showing \(shown.name)."
                    }
                }
            }
        }

        struct UseYear: ConsoleCommand {
            static let configuration = CommandConfiguration(
                commandName: "use", abstract: "Select the year commands work on.")
            @OptionGroup var options: ClientOptions
            @Argument(help: "The year's name.") var name: String

            func run(_ console: Console) async throws {
                try await OutreachCommand.run(options, console) { session in
                    let year = try session.year(named: name)
                    try session.outreach.selectYear(year.id)
                    session.output.emit(YearLine(year, selected: true)) { "Now showing \(year.name)." }
                }
            }
        }
    }
}

/// A year as the CLI prints it.
struct YearLine: Encodable {
    var id: String
    var name: String
    var selected: Bool

    init(_ year: OutreachYear, selected: Bool) {
        id = year.id.lowercased
        name = year.name
        self.selected = selected
    }

    var text: String { (selected ? "* " : "  ") + name }
}

/// A year's list for `--json`.
struct YearListing: Encodable {
    var year: YearLine
    var progress: OutreachProgress
    var contacts: [OutreachContact]
}

/// One person on one line: short id, delivered box, name, enterprise, delivery time, comment preview.
enum ContactText {
    static func line(_ contact: OutreachContact) -> String {
        var line =
            "\(contact.id.lowercased.prefix(8))  [\(contact.delivered ? "x" : " ")] "
            + "\(contact.lastName), \(contact.firstName) (\(contact.enterpriseName))"
        if let at = contact.deliveredAt { line += "  delivered \(WireCoding.formatTimestamp(at))" }
        let comment = contact.comments.replacingOccurrences(of: "\n", with: " ")
        if !comment.isEmpty { line += "  # " + (comment.count > 40 ? comment.prefix(40) + "…" : comment) }
        return line
    }
}
