import ArgumentParser
import Foundation
import KithCore
import KithKit

/// `kith outreach …`: the yearly outreach checklist, offline-first like the apps.
struct OutreachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outreach",
        abstract: "The yearly outreach checklist: years, people, deliveries, comments.",
        discussion:
            "Works offline against this profile's local data and syncs when the server answers. ID is a person's id or a unique prefix of it.",
        subcommands: [
            Years.self, YearCommand.self, List.self, Add.self, Edit.self, Deliver.self, Undeliver.self, Delete.self,
            Undo.self, Import.self, Export.self, CopyYear.self,
        ]
    )

    /// Runs `body` in an Outreach session with a sync before and after.
    static func run(
        _ options: ClientOptions, _ console: Console, _ body: @MainActor (OutreachSession) async throws -> Void
    ) async throws {
        try await OutreachSession.run(options, console, body)
    }

    /// What a change of many says after what it did.
    static let undoHint = " To take it back: kith outreach undo"

    /// `deliver` and `undeliver`: one person answers with their line; many in one change, with a
    /// sentence and what `undo` takes back.
    static func setDelivered(_ options: ClientOptions, _ console: Console, _ ids: [String], _ delivered: Bool)
        async throws
    {
        try await run(options, console) { session in
            let people = try session.contacts(ids)
            if people.count == 1 {
                let contact = try session.outreach.setDelivered(people[0].id, delivered)
                session.output.emit(contact) { ContactText.line(contact) }
                return
            }
            let undo = try session.outreach.setDelivered(people.map(\.id), delivered)
            try session.keep(undo)
            let changed = try people.compactMap { try session.outreach.contact($0.id) }
            session.output.emit(changed) {
                undo.doneSentence(delivered: delivered) + (undo.count > 0 ? Self.undoHint : "")
            }
        }
    }

    struct Years: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "List the years; * marks the selected one.")
        @OptionGroup var options: ClientOptions

        func run(_ console: Console) async throws {
            try await OutreachCommand.run(options, console) { session in
                let selected = try session.outreach.selectedYear()
                let years = try session.outreach.years().map { YearLine($0, selected: $0.id == selected.id) }
                session.output.emit(years) { years.map(\.text).joined(separator: "\n") }
            }
        }
    }

    struct List: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "The people of a year with delivery and comments.")
        @OptionGroup var options: ClientOptions
        @Option(help: "The year (default: the selected one).") var year: String?
        @Option(help: "Only people whose name or enterprise has these words (ignoring case and accents).")
        var search: String = ""
        @Flag(help: "Only the people delivered.") var delivered = false
        @Flag(help: "Only the people not delivered yet.") var notDelivered = false

        func validate() throws {
            if delivered && notDelivered { throw ValidationError("Choose --delivered or --not-delivered, not both.") }
        }

        func run(_ console: Console) async throws {
            let filter = OutreachFilter(
                text: search, delivery: delivered ? .delivered : notDelivered ? .notDelivered : .all)
            try await OutreachCommand.run(options, console) { session in
                let year = try session.year(named: year)
                let people = try session.outreach.contacts(in: year.id, matching: filter)
                let progress = try session.outreach.progress(of: year.id)
                let listing = YearListing(year: YearLine(year, selected: true), progress: progress, contacts: people)
                let shown = filter.isEmpty ? "" : " (\(people.count) shown)"
                session.output.emit(listing) {
                    (["\(year.name): \(progress.delivered) of \(progress.total) delivered" + shown]
                        + people.map(ContactText.line))
                        .joined(separator: "\n")
                }
            }
        }
    }

    struct Add: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "Add a person to a year.")
        @OptionGroup var options: ClientOptions
        @Option(help: "First name.") var first: String
        @Option(help: "Last name.") var last: String
        @Option(help: "Enterprise name.") var enterprise: String
        @Option(help: "Comments.") var comments: String = ""
        @Option(help: "The year (default: the selected one).") var year: String?

        func run(_ console: Console) async throws {
            try await OutreachCommand.run(options, console) { session in
                let year = try session.year(named: year)
                let contact = try session.outreach.addContact(
                    to: year.id, firstName: first, lastName: last, enterpriseName: enterprise, comments: comments)
                session.output.emit(contact) { "Added to \(year.name):\n" + ContactText.line(contact) }
            }
        }
    }

    struct Edit: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "Change a person's names, enterprise or comments.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The person's id or a unique prefix.") var id: String
        @Option(help: "First name.") var first: String?
        @Option(help: "Last name.") var last: String?
        @Option(help: "Enterprise name.") var enterprise: String?
        @Option(help: "Comments (\"\" clears them).") var comments: String?

        func validate() throws {
            if first == nil, last == nil, enterprise == nil, comments == nil {
                throw ValidationError("Say what to change: --first, --last, --enterprise or --comments.")
            }
        }

        func run(_ console: Console) async throws {
            try await OutreachCommand.run(options, console) { session in
                let contact = try session.outreach.editContact(
                    try session.contact(id).id, firstName: first, lastName: last, enterpriseName: enterprise,
                    comments: comments)
                session.output.emit(contact) { ContactText.line(contact) }
            }
        }
    }

    struct Deliver: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "Mark people delivered, now.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "Each person's id or a unique prefix.") var ids: [String]

        func run(_ console: Console) async throws {
            try await OutreachCommand.setDelivered(options, console, ids, true)
        }
    }

    struct Undeliver: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "Mark people not delivered.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "Each person's id or a unique prefix.") var ids: [String]

        func run(_ console: Console) async throws {
            try await OutreachCommand.setDelivered(options, console, ids, false)
        }
    }

    struct Delete: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete people.", discussion: "`kith outreach undo` brings them back.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "Each person's id or a unique prefix.") var ids: [String]

        func run(_ console: Console) async throws {
            try await OutreachCommand.run(options, console) { session in
                let people = try session.contacts(ids)
                let undo = try session.outreach.deleteContacts(people.map(\.id))
                try session.keep(undo)
                let deleted = people.map { $0.id.lowercased }
                session.output.emit(["deleted": deleted]) {
                    undo.doneSentence() + OutreachCommand.undoHint
                }
            }
        }
    }

    struct Undo: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take back the last deletion, or marking of many people, made with this profile.")
        @OptionGroup var options: ClientOptions

        func run(_ console: Console) async throws {
            try await OutreachCommand.run(options, console) { session in
                guard let undo = try session.takeUndo() else {
                    throw KithError.invalid(APIErrorDetail(.notFound, "There is nothing to undo."))
                }
                let count = try session.outreach.undo(undo)
                let deletion = if case .deletion = undo { true } else { false }
                session.output.emit(["undone": count]) { OutreachUndo.undoneSentence(count, deletion: deletion) }
            }
        }
    }

    struct Import: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add the people of a CSV file to a year.",
            discussion:
                "Columns: \(OutreachCSV.header.joined(separator: ",")), with that header row, separated by commas or semicolons. A bad line is skipped and reported."
        )
        @OptionGroup var options: ClientOptions
        @Argument(help: "The CSV file (UTF-8).") var file: String
        @Option(help: "The year (default: the selected one).") var year: String?

        func run(_ console: Console) async throws {
            try await OutreachCommand.run(options, console) { session in
                let year = try session.year(named: year)
                guard let data = FileManager.default.contents(atPath: file),
                    let text = String(data: data, encoding: .utf8)
                else {
                    throw KithError.invalid(
                        APIErrorDetail(.unreadableFile, "Cannot read \(file) as UTF-8 text."))
                }
                let done = try session.outreach.importCSV(text, into: year.id)
                session.output.emit(ImportAnswer(done)) {
                    ([OutreachImport.sentence(done, year: year.name)] + done.skipped.map(\.sentence))
                        .joined(separator: "\n")
                }
            }
        }
    }

    struct Export: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a year's people as CSV (with --json, as JSON).")
        @OptionGroup var options: ClientOptions
        @Option(help: "The year (default: the selected one).") var year: String?

        func run(_ console: Console) async throws {
            try await OutreachCommand.run(options, console) { session in
                let year = try session.year(named: year)
                if session.output.json {
                    session.output.emit(try session.outreach.contacts(in: year.id)) { "" }
                } else {
                    session.output.write(try session.outreach.exportCSV(year: year.id))
                }
            }
        }
    }

    struct CopyYear: ConsoleCommand {
        static let configuration = CommandConfiguration(
            commandName: "copy-year", abstract: "Start a new year with the people of another, none delivered.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The year to copy.") var from: String
        @Argument(help: "The new year's name.") var to: String

        func run(_ console: Console) async throws {
            try await OutreachCommand.run(options, console) { session in
                let source = try session.year(named: from)
                let year = try session.outreach.copyYear(source.id, to: to)
                let count = try session.outreach.contacts(in: year.id).count
                session.output.emit(YearLine(year, selected: false)) {
                    "Created \(year.name) with \(count) people from \(source.name)."
                }
            }
        }
    }

    /// What `import --json` prints: the counts and each skipped line with its reason.
    struct ImportAnswer: Encodable {
        let imported: Int
        let updated: Int
        let unchanged: Int
        let skipped: [OutreachSkippedLine]

        init(_ done: OutreachImport) {
            imported = done.added
            updated = done.updated
            unchanged = done.unchanged
            skipped = done.skipped
        }
    }
}
