import ArgumentParser
import Foundation
import KithCore
import KithKit

/// `kith inbox`: the notices the server delivered to the signed-in person (docs/family.md): due,
/// before-due and snoozed reminders, completions and movements, newest first. The inbox is the
/// server's, so this needs it.
struct InboxCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "inbox",
        abstract: "Your notices, newest first: reminders coming due, completions, movements.",
        discussion:
            "Needs the server. Times show in your time zone (TZ); * marks an unread notice, `late` one the server delivered after its time."
    )
    @OptionGroup var options: ClientOptions
    @Flag(help: "Only the unread ones.") var unread = false
    @Option(help: "How many, newest first (1-200).") var limit = InboxLimits.defaultPage
    @Flag(help: "Mark every notice read after showing them.") var readAll = false

    func validate() throws {
        guard InboxLimits.page.contains(limit) else {
            throw ValidationError("--limit is \(InboxLimits.page.lowerBound) to \(InboxLimits.page.upperBound).")
        }
    }

    func run(_ console: Console) async throws {
        try await options.run(console) { profile, output in
            let client = try profile.client()
            guard try await client.storedSession() != nil else { throw KithError.notSignedIn }
            let page = try await client.inbox(unreadOnly: unread, limit: limit, timeZone: profile.timeZone)
            output.emit(page) { InboxText.page(page, unreadOnly: unread, in: profile.timeZone) }
            if readAll {
                try await client.markAllNoticesRead()
                output.note("Marked every notice read.")
            }
        }
    }
}
