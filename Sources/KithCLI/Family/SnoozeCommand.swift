import ArgumentParser
import Foundation
import KithCore
import KithKit

extension RemindersCommand {
    /// `kith reminders snooze ID [--minutes N]`: a local write like the other reminder commands,
    /// judged by the same rules (the assignee, once due, up to the family's limit) and synced.
    struct Snooze: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Snooze a due reminder's notice: its assignee, up to the family's limit (3 unless a parent set another)."
        )
        @OptionGroup var options: ClientOptions
        @Argument(help: "The reminder's id or a unique prefix of it.") var id: String
        @Option(help: "For how many minutes (1-1440).") var minutes: Int64 = 10

        func run(_ console: Console) async throws {
            try await RemindersCommand.run(options, console) { session in
                let family = try session.knownFamily()
                let snoozed = try session.family.snooze(try session.reminder(id).id, minutes: minutes)
                session.output.emit(ReminderJSON(snoozed, in: family)) { FamilyText.snoozed(snoozed, in: family) }
            }
        }
    }
}
