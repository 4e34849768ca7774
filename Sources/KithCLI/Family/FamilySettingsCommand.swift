import ArgumentParser
import Foundation
import KithCore
import KithKit

extension FamilyCommand {
    /// `kith family settings`: what `PATCH /v1/family` changes (parents); a sync then brings the
    /// new `family.info` to this device, so the snooze limit holds here too.
    struct Settings: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Rename the family, move it to another time zone, or set how often a reminder may be snoozed (parents)."
        )
        @OptionGroup var options: ClientOptions
        @Option(help: "A new name.") var name: String?
        @Option(help: "A new IANA time zone (e.g. Europe/Berlin).") var timeZone: String?
        @Option(help: "How often one occurrence of a reminder may be snoozed (0-10; a new family has 3).")
        var snoozeLimit: Int64?

        func validate() throws {
            guard name != nil || timeZone != nil || snoozeLimit != nil else {
                throw ValidationError("Give --name, --time-zone or --snooze-limit.")
            }
        }

        func run(_ console: Console) async throws {
            try await FamilySession.runOnline(options, console) { session in
                let family = try await session.client.updateFamily(
                    name: name, timeZone: timeZone, snoozeLimit: snoozeLimit)
                session.output.emit(FamilyJSON(family)) {
                    let times = family.snoozeLimit == 1 ? "once" : "\(family.snoozeLimit) times"
                    return "\(family.name) (\(family.timeZone)): a reminder may be snoozed \(times)."
                }
            }
        }
    }
}
