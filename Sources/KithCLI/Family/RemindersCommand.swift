import ArgumentParser
import Foundation
import KithCore
import KithKit

/// `kith reminders …`: the family's shared reminders. They are synced records, so every
/// command works offline against this device's copy, under the same rules the server enforces.
struct RemindersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reminders",
        abstract:
            "Your family's reminders: list, add, edit, tick checklists, complete (and undo that), snooze, locate, delete.",
        discussion:
            "Works offline; syncs before and after when the server answers. ID is a reminder's id or a unique prefix of it; MEMBER a member's display name or email; ITEM a checklist line's number (from 1) or its text. Times show in the family's time zone.",
        subcommands: [
            List.self, Add.self, Edit.self, Check.self, Complete.self, Undo.self, Snooze.self, Locate.self, Delete.self,
        ],
        defaultSubcommand: List.self
    )

    /// Runs `body` in a Family session with a sync before and after.
    static func run(
        _ options: ClientOptions, _ console: Console, _ body: @MainActor (FamilySession) async throws -> Void
    )
        async throws
    {
        try await FamilySession.run(options, console, body)
    }

    @MainActor
    static func emit(_ reminder: FamilyReminder, _ session: FamilySession, prefix: String) throws {
        let family = try session.knownFamily()
        session.output.emit(ReminderJSON(reminder, in: family)) { prefix + FamilyText.reminder(reminder, in: family) }
    }

    /// The reminder with the place given on the command line, if one was.
    @MainActor
    static func placing(_ reminder: FamilyReminder, at place: PlaceOptions, _ session: FamilySession) throws
        -> FamilyReminder
    {
        guard let point = try place.point() else { return reminder }
        return try session.family.setLocation(reminder.id, point: point, accuracy: place.metres)
    }

    /// The user id of MEMBER, when given.
    @MainActor
    static func memberId(_ text: String?, _ session: FamilySession) async throws -> String? {
        guard let text else { return nil }
        return try await session.member(text).id
    }

    struct List: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "Reminders, due first, optionally filtered.")
        @OptionGroup var options: ClientOptions
        @Option(help: "pending or completed.") var status: String?
        @Flag(help: "Only those assigned to you.") var mine = false
        @Flag(help: "Only those assigned to others.") var others = false
        @Option(help: "Only those assigned to this member.") var member: String?
        @Option(help: "Due on or after this day (yyyy-MM-dd, in the family's time zone).") var from: String?
        @Option(help: "Due on or before this day (yyyy-MM-dd).") var to: String?

        func validate() throws {
            if let status, FamilyReminder.Status(rawValue: status) == nil {
                throw ValidationError("--status takes pending or completed.")
            }
            guard [mine, others, member != nil].filter({ $0 }).count <= 1 else {
                throw ValidationError("Choose one of --mine, --others and --member.")
            }
            _ = try from.map { try ReminderInput.date($0, option: "--from") }
            _ = try to.map { try ReminderInput.date($0, option: "--to") }
        }

        func run(_ console: Console) async throws {
            try await RemindersCommand.run(options, console) { session in
                let family = try session.knownFamily()
                var filter = ReminderFilter(status: status.flatMap(FamilyReminder.Status.init(rawValue:)))
                if mine { filter.assignee = .me }
                if others { filter.assignee = .others }
                if let member { filter.assignee = .member(try await session.member(member).id) }
                filter.from = try from.flatMap {
                    ReminderInput.start(of: try ReminderInput.date($0, option: "--from"), in: family.timeZone)
                }
                filter.until = try to.flatMap {
                    ReminderInput.start(
                        of: try ReminderInput.date($0, option: "--to").adding(days: 1), in: family.timeZone)
                }
                session.family.filter = filter
                let reminders = session.family.reminders
                session.output.emit(reminders.map { ReminderJSON($0, in: family) }) {
                    FamilyText.reminders(reminders, in: family)
                }
            }
        }
    }

    struct Add: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Add a reminder, with a checklist, once (--due) or repeating (--repeats daily|weekly|monthly, --every, --on or --day, --starting)."
        )
        @OptionGroup var options: ClientOptions
        @Argument(help: "What to remember.") var title: String
        @Option(help: "When it is due: ISO 8601 (2026-11-25T07:30:00Z), or 2026-11-25T07:30 in the family's time zone.")
        var due: String?
        @Option(help: "Who it is for (a child: only themselves). Default: you.") var assign: String?
        @Option(name: .customLong("item"), help: "A checklist line; repeat for several.") var items: [String] = []
        @OptionGroup(title: "How it repeats") var repeating: RepeatOptions
        @OptionGroup(title: "Where it is to be done") var place: PlaceOptions

        func validate() throws {
            if repeating.given {
                guard due == nil else {
                    throw ValidationError(
                        "--due and --every don't go together: a repeating reminder is due at its first occurrence.")
                }
                _ = try repeating.schedule()
            } else if due == nil {
                throw ValidationError("Give --due, or --every (or --repeats) with --on or --day and --starting.")
            }
        }

        func run(_ console: Console) async throws {
            try await RemindersCommand.run(options, console) { session in
                let family = try session.knownFamily()
                let assignee = try await RemindersCommand.memberId(assign, session)
                let reminder = try session.family.addReminder(
                    title: title, dueAt: try due.map { try ReminderInput.due($0, in: family.timeZone) },
                    assignee: assignee,
                    items: items, schedule: try repeating.schedule())
                try RemindersCommand.emit(
                    try RemindersCommand.placing(reminder, at: place, session), session, prefix: "Added ")
            }
        }
    }

    struct Edit: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a pending reminder's title, due time, assignee, repeat or place.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The reminder's id or a unique prefix of it.") var id: String
        @Option(help: "A new title.") var title: String?
        @Option(help: "A new due time (as for add).") var due: String?
        @Option(help: "A new assignee (MEMBER).") var assign: String?
        @OptionGroup(title: "A new repeat (as for add)") var repeating: RepeatOptions
        @Flag(help: "Stop repeating: it is due once, at its current due time.") var noRepeat = false
        @OptionGroup(title: "A new place") var place: PlaceOptions

        func validate() throws {
            guard title != nil || due != nil || assign != nil || place.given || repeating.given || noRepeat else {
                throw ValidationError(
                    "Give --title, --due, --assign, a repeat (--repeats, --every…), --no-repeat or --lat and --lon.")
            }
            if noRepeat && repeating.given { throw ValidationError("--no-repeat takes no other repeat option.") }
            if due != nil && repeating.given {
                throw ValidationError(
                    "--due and a repeat don't go together: a repeating reminder is due at its first occurrence.")
            }
            _ = try repeating.schedule()
        }

        func run(_ console: Console) async throws {
            try await RemindersCommand.run(options, console) { session in
                let family = try session.knownFamily()
                let reminder = try session.reminder(id)
                let assignee = try await RemindersCommand.memberId(assign, session)
                var edited = reminder
                if title != nil || due != nil || assignee != nil {
                    edited = try session.family.edit(
                        reminder.id, title: title,
                        dueAt: try due.map { try ReminderInput.due($0, in: family.timeZone) }, assignee: assignee)
                }
                if let schedule = try repeating.schedule() {
                    edited = try session.family.setSchedule(reminder.id, schedule)
                } else if noRepeat {
                    edited = try session.family.setSchedule(reminder.id, nil)
                }
                try RemindersCommand.emit(
                    try RemindersCommand.placing(edited, at: place, session), session, prefix: "Changed ")
            }
        }
    }

    struct Check: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "Tick a checklist line (or untick it with --undo).")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The reminder's id or a unique prefix of it.") var id: String
        @Argument(help: "The line's number (from 1) or its text.") var item: String
        @Flag(help: "Untick it.") var undo = false

        func run(_ console: Console) async throws {
            try await RemindersCommand.run(options, console) { session in
                let reminder = try session.reminder(id)
                let line = try ReminderInput.item(item, of: reminder)
                let changed = try session.family.setItem(line.id, of: reminder.id, done: !undo)
                try RemindersCommand.emit(changed, session, prefix: "")
            }
        }
    }

    struct Complete: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Mark a reminder done (its creator or assignee). A repeating one moves to its next occurrence. `undo` takes it back within 30 seconds."
        )
        @OptionGroup var options: ClientOptions
        @Argument(help: "The reminder's id or a unique prefix of it.") var id: String
        @Flag(help: "Complete it even with checklist items not ticked (otherwise refused, naming them).")
        var yes = false

        func run(_ console: Console) async throws {
            try await RemindersCommand.run(options, console) { session in
                let reminder = try session.reminder(id)
                let done: FamilyReminder
                do {
                    done = try session.family.complete(reminder.id, evenIfUnticked: yes)
                } catch let error as KithError where error.identifier == ErrorCode.untickedItems.rawValue {
                    // The terminal's way to say "Complete anyway": the flag.
                    let texts = reminder.unticked.map(\.text)
                    let count = texts.count == 1 ? "1 item is" : "\(texts.count) items are"
                    throw KithError.invalid(
                        APIErrorDetail(
                            .untickedItems,
                            "\(count) not ticked: \(texts.joined(separator: ", ")). Complete it anyway with --yes."))
                }
                let zone = try session.knownFamily().timeZone
                // A repeating reminder stays pending, due at its next occurrence.
                let prefix =
                    done.status == .pending ? "Done; next due \(FamilyText.when(done.dueAt, in: zone)): " : "Completed "
                try RemindersCommand.emit(done, session, prefix: prefix)
            }
        }
    }

    struct Delete: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a reminder and its checklist (its creator or a parent).")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The reminder's id or a unique prefix of it.") var id: String

        func run(_ console: Console) async throws {
            try await RemindersCommand.run(options, console) { session in
                let reminder = try session.reminder(id)
                try session.family.delete(reminder.id)
                session.output.emit(["deleted": reminder.id.lowercased]) { "Deleted \(reminder.title)." }
            }
        }
    }
}
