import ArgumentParser
import Foundation
import KithCore
import KithKit

extension RemindersCommand {
    /// `kith reminders undo ID`: takes back your completion within 30 seconds of it, before the
    /// parents are told. A local write like `complete`, judged by the same rules, synced after.
    struct Undo: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Undo your completion of a reminder within 30 seconds: it is pending again and the parents are not told."
        )
        @OptionGroup var options: ClientOptions
        @Argument(help: "The reminder's id or a unique prefix of it.") var id: String

        func run(_ console: Console) async throws {
            try await RemindersCommand.run(options, console) { session in
                let undone = try session.family.undoCompletion(try session.reminder(id).id)
                try RemindersCommand.emit(undone, session, prefix: "Undone, pending again: ")
            }
        }
    }
}
